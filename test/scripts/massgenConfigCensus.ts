import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { formatIssue } from '../../src/core/config/configIssue.js';
import { loadConfigFile } from '../../src/core/config/loadConfig.js';
import { toBackendSettings } from '../../src/core/config/toSettings.js';

/**
 * Not part of the suite: how many of MassGen's own example configs our loader accepts.
 * `npx tsx test/scripts/massgenConfigCensus.ts [git-dir] [tag]` extracts every `configs/**.y(a)ml`
 * of the tag to a temp folder, loads each (what `massgen validate` does, without the API-key
 * check: keys are the user's, not the config's), and prints accepted/rejected, the first error
 * of each rejected file, how many files warn about each key and how many turn provider tools on
 * (`enable_web_search`, …) on a backend that runs them. `--files=KEY` lists the files warning about KEY.
 */
const args = process.argv.slice(2);
const positional = args.filter((arg) => !arg.startsWith('--'));
const listKey = args.find((arg) => arg.startsWith('--files='))?.slice('--files='.length);
const gitDir = positional[0] ?? '/work/.mirror/massgen+MassGen/repo';
const tag = positional[1] ?? 'v0.1.12';

function git(...args: string[]): string {
	return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

async function main(): Promise<void> {
	const paths = git('ls-tree', '-r', '--name-only', tag)
		.split('\n')
		.filter((path) => /(^|\/)configs\/.*\.ya?ml$/.test(path));
	const root = mkdtempSync(join(tmpdir(), 'massgen-census-'));
	const rejected: string[] = [];
	const warned = new Map<string, Set<string>>();
	const honoured = { webSearch: new Set<string>(), codeExecution: new Set<string>() };
	try {
		for (const path of paths) {
			const file = join(root, path);
			mkdirSync(dirname(file), { recursive: true });
			writeFileSync(file, git('show', `${tag}:${path}`));
			const { issues, config } = await loadConfigFile(file);
			for (const agent of config?.agents ?? []) {
				const tools = toBackendSettings(agent).providerTools;
				if (tools?.webSearch) honoured.webSearch.add(path);
				if (tools?.codeExecution) honoured.codeExecution.add(path);
			}
			const error = issues.find((issue) => issue.severity === 'error');
			if (error) rejected.push(formatIssue({ ...error, file: path }));
			for (const issue of issues.filter((i) => i.severity === 'warning')) {
				const key = [...issue.path].reverse().find((part) => typeof part === 'string') ?? '(root)';
				const name = `${issue.code} ${key}`;
				warned.set(name, (warned.get(name) ?? new Set()).add(path));
			}
		}
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
	const out = (line: string): boolean => process.stdout.write(`${line}\n`);
	out(
		`${tag}: ${paths.length} configs, ${paths.length - rejected.length} accepted, ${rejected.length} rejected`,
	);
	for (const line of rejected) out(`  rejected ${line}`);
	out('warnings (files per code and key):');
	const tally = [...warned].sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]));
	for (const [name, files] of tally) out(`  ${String(files.size).padStart(4)} ${name}`);
	out(
		`provider tools run (files): web search ${honoured.webSearch.size}, code execution ${honoured.codeExecution.size}`,
	);
	if (listKey) {
		out(`files warning about ${listKey}:`);
		for (const [name, files] of tally.filter(([name]) => name.endsWith(` ${listKey}`))) {
			for (const file of [...files].sort()) out(`  ${name}: ${file}`);
		}
	}
}

void main();
