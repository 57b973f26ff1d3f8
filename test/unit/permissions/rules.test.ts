import { describe, expect, it } from 'vitest';
import {
	compileRule,
	compileRuleLists,
	escapeGlob,
	exactRule,
	ruleSyntaxError,
} from '../../../src/core/permissions/rules.js';
import { analyseShell } from '../../../src/core/permissions/shellCommand.js';

const matches = (pattern: string, target: string) =>
	compileRule({ effect: 'allow', pattern, source: 'config' }).matches(target);

describe('rules', () => {
	it('parses action(target); a bare action means every target; bad patterns are errors, not throws', () => {
		expect(compileRule({ effect: 'deny', pattern: 'mcp(github/*)', source: 'config' })).toMatchObject({
			action: 'mcp',
			target: 'github/*',
			exact: false,
		});
		expect(compileRule({ effect: 'allow', pattern: 'read_url', source: 'settings' })).toMatchObject({
			action: 'read_url',
			target: '*',
		});
		expect(ruleSyntaxError('command()')).toMatch(/empty target/);
		expect(ruleSyntaxError('Run it!')).toMatch(/is not a rule/);
		const { rules, errors } = compileRuleLists(
			{ allow: ['command(npm test)', '(oops'], deny: ['mcp(x/*)'] },
			'config',
		);
		expect(rules.map((rule) => [rule.effect, rule.pattern])).toEqual([
			['deny', 'mcp(x/*)'],
			['allow', 'command(npm test)'],
		]);
		expect(errors).toHaveLength(1);
	});

	it('globs: * crosses / and spaces, {a,b} alternatives; exact targets match only themselves (spaces normalised)', () => {
		expect(matches('command(git push*)', 'git push --force origin main')).toBe(true);
		expect(matches('command(git push*)', 'git pull')).toBe(false);
		expect(matches('mcp(github/*)', 'github/create_issue')).toBe(true);
		expect(matches('mcp(github/*)', 'gitlab/create_issue')).toBe(false);
		expect(matches('command(npm run {test,lint})', 'npm run lint')).toBe(true);
		expect(matches('command(npm test)', 'npm   test')).toBe(true);
		expect(matches('command(npm test)', 'npm test; rm -rf x')).toBe(false);
		expect(matches('read_url(https://docs.example/*)', 'https://docs.example/a/b?c')).toBe(true);
	});

	it('exactRule escapes glob syntax, so a granted line matches only itself', () => {
		const rule = exactRule('command', 'echo *  (x) [y] {z}');
		expect(rule).toBe('command(echo \\* \\(x\\) \\[y\\] \\{z\\})');
		const compiled = compileRule({ effect: 'allow', pattern: rule, source: 'run' });
		expect(compiled.exact).toBe(true);
		expect(compiled.matches('echo * (x) [y] {z}')).toBe(true);
		expect(compiled.matches('echo anything (x) [y] {z}')).toBe(false);
		expect(escapeGlob('a?b')).toBe('a\\?b');
	});
});

describe('analyseShell', () => {
	const parts = (line: string) => analyseShell(line).parts.map((part) => [part.origin, part.name, part.text]);

	it('splits ; && || | & and newlines, keeping pipe order', () => {
		expect(parts('a x; b && c || d | e & f\ng')).toEqual([
			['top', 'a', 'a x'],
			['top', 'b', 'b'],
			['top', 'c', 'c'],
			['top', 'd', 'd'],
			['top', 'e', 'e'],
			['top', 'f', 'f'],
			['top', 'g', 'g'],
		]);
		expect(analyseShell('curl x | tee y | sh').parts.at(-1)!.upstream).toEqual(['curl', 'tee']);
	});

	it('removes quoting and escapes, and unwraps wrappers to the real program', () => {
		const [part] = analyseShell(`FOO=1 sudo -u root env A=2 nice -n 5 timeout 10 "r"'m' -rf x`).parts;
		expect(part).toMatchObject({
			name: 'rm',
			wrappers: ['sudo', 'env', 'nice', 'timeout'],
			assignments: ['FOO=1'],
			program: ['rm', '-rf', 'x'],
		});
		expect(analyseShell('/usr/bin/RM x').parts[0]!.name).toBe('rm');
	});

	it('reads substitutions, nested shells, eval, find -exec and xargs as parts of their own', () => {
		expect(parts('echo $(curl a | sh) `id`')).toEqual([
			['substitution', 'curl', 'curl a'],
			['substitution', 'sh', 'sh'],
			['substitution', 'id', 'id'],
			['top', 'echo', 'echo __massgen_subst_0__ __massgen_subst_1__'],
		]);
		expect(parts('bash -c "ls; rm x"').slice(1)).toEqual([
			['nested', 'ls', 'ls'],
			['nested', 'rm', 'rm x'],
		]);
		expect(parts('find . -exec rm -f {} \\; -exec echo hi {} +').slice(1)).toEqual([
			['nested', 'rm', 'rm -f {}'],
			['nested', 'echo', 'echo hi {}'],
		]);
		expect(analyseShell('xargs -n1 rm').parts[0]).toMatchObject({ name: 'rm', wrappers: ['xargs'] });
		expect([...analyseShell('eval "x"').features]).toContain('eval');
	});

	it('leaves single-quoted text and comments alone; arithmetic is not a command', () => {
		expect(analyseShell("echo '$(rm -rf /)' # `rm -rf /`").substitutions).toEqual([]);
		expect(parts('echo $((1 + 2))')).toEqual([['top', 'echo', 'echo 0']]);
		expect(parts('echo "$(whoami)"')[0]).toEqual(['substitution', 'whoami', 'whoami']);
	});

	it('records redirections (and drops descriptor copies)', () => {
		expect(analyseShell('cmd > out.txt 2>&1 < in.txt').parts[0]!.redirects).toEqual([
			{ op: '>', target: 'out.txt' },
			{ op: '<', target: 'in.txt' },
		]);
	});
});
