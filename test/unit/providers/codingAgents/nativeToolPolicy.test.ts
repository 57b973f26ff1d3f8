import {
	linkSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	realpathSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideNativeTool } from '../../../../src/core/providers/codingAgents/nativeToolPolicy.js';
import { secretPaths } from '../../../../src/core/workspace/secretPaths.js';
import { inodeKey } from '../../../../src/core/workspace/secretScan.js';

describe("Claude Code's native tools under our offer", () => {
	const folder = realpathSync(mkdtempSync(join(tmpdir(), 'massgen-cc-policy-')));
	const coordination = {
		folder,
		server: 'massgen',
		offered: new Set(['read_file', 'write_file', 'new_answer']),
	};

	it('reads and edits inside the folder, relative or absolute, and our own MCP tools', () => {
		expect(decideNativeTool('Read', { file_path: join(folder, 'a.ts') }, coordination)).toEqual({
			allow: true,
		});
		expect(decideNativeTool('Write', { file_path: 'src/new.ts' }, coordination)).toEqual({ allow: true });
		expect(decideNativeTool('Grep', { pattern: 'x' }, coordination)).toEqual({ allow: true });
		expect(decideNativeTool('mcp__massgen__vote', {}, coordination)).toEqual({ allow: true });
	});

	it('refuses secret paths in every spelling and through links; hard links in a bound dependency folder by inode', () => {
		const secrets = secretPaths(['config/prod.yaml']);
		// The real dependency folder (bound in the sandbox at folder/node_modules, an empty folder on the host).
		const source = realpathSync(mkdtempSync(join(tmpdir(), 'massgen-cc-deps-')));
		writeFileSync(join(source, '.npmrc'), 'token');
		linkSync(join(source, '.npmrc'), join(source, 'readme.md'));
		mkdirSync(join(folder, 'node_modules'), { recursive: true });
		symlinkSync('.env', join(folder, 'innocent'));
		const context = {
			...coordination,
			secrets,
			linkedInodes: new Set([inodeKey(lstatSync(join(source, '.npmrc')))]),
			dependencyMounts: [{ source, target: join(folder, 'node_modules') }],
		};
		const refused = [
			['Read', { file_path: 'node_modules/pkg/.env' }],
			['Read', { file_path: join(folder, '.ENV.local') }],
			['Read', { file_path: './a//b/../id_rsa.' }],
			['Grep', { pattern: 'x', path: '.ssh' }],
			['Glob', { pattern: '*', path: '.aws/' }],
			['Edit', { file_path: 'config/prod.yaml' }],
			['Read', { file_path: 'innocent' }],
			['Read', { file_path: 'node_modules/readme.md' }],
		] as const;
		for (const [name, input] of refused) {
			const verdict = decideNativeTool(name, input, context);
			expect(verdict, `${name} ${JSON.stringify(input)}`).toMatchObject({ allow: false });
			expect(verdict.allow || verdict.reason).toMatch(/is a secret path|is a hard link to a secret file/);
		}
		// Controls: a plain file beside them, a look-alike name that is another file.
		for (const file_path of ['node_modules/pkg/index.js', '.environment.md', 'config/dev.yaml']) {
			expect(decideNativeTool('Read', { file_path }, context)).toEqual({ allow: true });
		}
	});

	it('refuses paths outside the folder, also through a link or ..', () => {
		symlinkSync(tmpdir(), join(folder, 'out'));
		for (const file_path of ['/etc/passwd', '../x.txt', 'out/escaped.txt']) {
			const verdict = decideNativeTool('Write', { file_path }, coordination);
			expect(verdict).toMatchObject({ allow: false });
			expect(verdict.allow || verdict.reason).toContain('outside your working folder');
		}
	});

	it("Glob's pattern and Grep's glob stay relative to the folder (Claude Code honours an absolute one)", () => {
		for (const pattern of ['/srv/**/*', '../**/*', 'src/../../*', '~/.ssh/*', 'C:/Users/*']) {
			expect(decideNativeTool('Glob', { pattern }, coordination)).toMatchObject({ allow: false });
		}
		expect(decideNativeTool('Grep', { pattern: 'x', glob: '/home/**/*.env' }, coordination)).toMatchObject({
			allow: false,
		});
		// Control: relative patterns list the folder.
		expect(decideNativeTool('Glob', { pattern: '**/*.ts' }, coordination)).toEqual({ allow: true });
		expect(decideNativeTool('Grep', { pattern: 'x', glob: '*.{ts,js}' }, coordination)).toEqual({
			allow: true,
		});
	});

	it('edits only when the call offers write tools (an evaluation reads only)', () => {
		const reading = { ...coordination, offered: new Set(['read_file', 'submit']) };
		expect(decideNativeTool('Edit', { file_path: 'a.ts' }, reading)).toMatchObject({ allow: false });
		expect(decideNativeTool('Read', { file_path: 'a.ts' }, reading)).toEqual({ allow: true });
	});

	it('never its Bash (run_command is the way, when offered) nor the web tools', () => {
		const withCommands = { ...coordination, offered: new Set([...coordination.offered, 'run_command']) };
		expect(decideNativeTool('Bash', { command: 'ls' }, withCommands)).toEqual({
			allow: false,
			reason:
				"Bash is not available here: run commands with mcp__massgen__run_command (sandboxed, under the user's permission rules)",
		});
		expect(decideNativeTool('Bash', { command: 'ls' }, coordination)).toMatchObject({
			reason: 'Bash is not available here: commands are off for this agent',
		});
		expect(decideNativeTool('WebFetch', { url: 'https://example.com' }, coordination)).toMatchObject({
			allow: false,
		});
		expect(decideNativeTool('Task', {}, coordination)).toMatchObject({ allow: false });
	});
});
