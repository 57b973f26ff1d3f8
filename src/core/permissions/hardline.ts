/**
 * The hardline floor: actions refused whatever the rules, the user's "always allow" decisions
 * or the CLI's `--yes` say. It is deliberately short and about irreversible damage outside the
 * task: wiping the disk or home folder, fork bombs, raw disk writes, rewriting `.git/`,
 * opening the whole system's permissions, and piping downloads into a shell.
 */
import { isCriticalPath, operands, optionValues, rawDevice, touchesGitDir } from './pathWords.js';
import type { CommandPart, ShellAnalysis } from './shellAnalysis.js';
import { displayText, shellNames } from './shellCommand.js';

const fetchers = new Set([
	'curl',
	'wget',
	'fetch',
	'aria2c',
	'http',
	'https',
	'xh',
	'iwr',
	'invoke-webrequest',
	'irm',
	'invoke-restmethod',
	'nc',
	'ncat',
]);
const interpreters = new Set([
	...shellNames,
	'python',
	'python2',
	'python3',
	'perl',
	'ruby',
	'node',
	'deno',
	'bun',
	'php',
	'pwsh',
	'powershell',
	'iex',
	'invoke-expression',
	'source',
	'.',
	'eval',
]);
const writingRedirects = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const diskTools = /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|newfs(_.+)?|diskutil|format(\.com)?)$/;
const powerCommands = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
/** Programs that write to the paths they are given (the last operand for copy-like ones). */
const writers = new Set([
	'rm',
	'rmdir',
	'unlink',
	'shred',
	'touch',
	'truncate',
	'tee',
	'chmod',
	'chown',
	'chgrp',
	'mkdir',
	'dd',
	'sed',
	'perl',
	'git',
]);
const copiers = new Set(['cp', 'mv', 'ln', 'install', 'rsync', 'scp']);

/** The reason a command line is refused outright, or null. Every part is checked, nested ones too. */
export function hardlineForCommand(analysis: ShellAnalysis): string | null {
	if (isForkBomb(analysis.raw)) return 'a fork bomb';
	for (const part of analysis.parts) {
		const reason = hardlineForPart(part, analysis);
		if (reason !== null) {
			return `${reason} (in '${clip(part.text || part.redirects.map((r) => `${r.op} ${r.target}`).join(' '))}')`;
		}
	}
	return null;
}

function hardlineForPart(part: CommandPart, analysis: ShellAnalysis): string | null {
	for (const redirect of part.redirects) {
		if (!writingRedirects.has(redirect.op)) continue;
		if (rawDevice.test(redirect.target)) return `writes to the raw disk ${redirect.target}`;
		if (touchesGitDir(redirect.target)) return `writes into .git/ (${redirect.target})`;
	}
	const { name, program } = part;
	if (name === '') return null;
	const args = program.slice(1);
	const targets = [...operands(args), ...optionValues(args)];
	if (
		name === 'rm' ||
		((name === 'rd' || name === 'rmdir' || name === 'del') && args.some((a) => /^\/s$/i.test(a)))
	) {
		const recursive = args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive' || /^\/s$/i.test(a));
		if (args.includes('--no-preserve-root')) return 'deletes with --no-preserve-root';
		const critical = targets.find(isCriticalPath);
		if (recursive && critical !== undefined) return `recursively deletes ${critical}`;
	}
	if (
		(name === 'chmod' || name === 'chown' || name === 'chgrp') &&
		args.some((a) => /^-[a-zA-Z]*R/.test(a) || a === '--recursive')
	) {
		const critical = targets.find(isCriticalPath);
		if (critical !== undefined) return `recursively changes permissions of ${critical}`;
	}
	if (name === 'find' && (args.includes('-delete') || part.text.includes(' -exec rm'))) {
		const start = args.find((a) => !a.startsWith('-'));
		if (start !== undefined && isCriticalPath(start)) return `deletes everything under ${start}`;
	}
	if (name === 'mv' && targets.slice(0, -1).some(isCriticalPath)) {
		return `moves ${targets.find(isCriticalPath)} away`;
	}
	if (diskTools.test(name)) return `formats or wipes a disk (${name})`;
	if (name === 'dd' && args.some((a) => /^of=/.test(a) && rawDevice.test(a.slice(3)))) {
		return 'writes to a raw disk with dd';
	}
	if ((name === 'shred' || name === 'cp' || name === 'tee') && targets.some((t) => rawDevice.test(t))) {
		return 'writes to a raw disk';
	}
	if (
		powerCommands.has(name) ||
		(name === 'init' && /^[06]$/.test(args[0] ?? '')) ||
		(name === 'systemctl' && /^(poweroff|reboot|halt|kexec)$/.test(args[0] ?? ''))
	) {
		return `shuts down or restarts the machine (${name})`;
	}
	if (name === 'kill' && args.length > 0 && args.at(-1) === '-1') return 'signals every process (kill -1)';
	if (name === 'killall5') return 'signals every process (killall5)';
	const gitWrite = writesGitDir(name, args, targets);
	if (gitWrite !== null) return gitWrite;
	if (interpreters.has(name)) {
		const feeding = part.upstream.find((upstream) => fetchers.has(upstream));
		if (feeding !== undefined) return `pipes a download (${feeding}) into ${name}`;
		const fetched = part.substitutions.find((index) =>
			analysis.substitutions[index]?.programs.some((p) => fetchers.has(p)),
		);
		if (fetched !== undefined) {
			return `runs a download (${analysis.substitutions[fetched]!.programs.find((p) => fetchers.has(p))}) with ${name}`;
		}
	}
	return null;
}

function writesGitDir(name: string, args: readonly string[], targets: readonly string[]): string | null {
	if (name === 'git') {
		// git itself maintains .git/; only writing into it by path (e.g. `git --git-dir` tricks) is refused elsewhere.
		return null;
	}
	if (copiers.has(name)) {
		// The destination is the last operand, or the value of -t / --target-directory.
		const flagged = args.findIndex((a) => a === '-t' || a === '--target-directory');
		const candidates = [targets.at(-1), flagged >= 0 ? args[flagged + 1] : undefined];
		const hit = candidates.find((candidate) => candidate !== undefined && touchesGitDir(candidate));
		return hit === undefined ? null : `writes into .git/ (${hit})`;
	}
	if (name === 'sed' || name === 'perl') {
		if (!args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return null;
	} else if (!writers.has(name)) {
		return null;
	}
	if (name === 'dd') {
		const out = args.find((a) => a.startsWith('of='));
		return out !== undefined && touchesGitDir(out.slice(3)) ? `writes into .git/ (${out.slice(3)})` : null;
	}
	const hit = targets.find(touchesGitDir);
	return hit === undefined ? null : `writes into .git/ (${hit})`;
}

/** `:(){ :|:& };:` and its renamings, `%0|%0`, and `fork while fork`. */
function isForkBomb(raw: string): boolean {
	const flat = raw.replace(/\s+/g, ' ');
	const fn = /([A-Za-z_:.][\w:.-]*)\s*\(\s*\)\s*\{([^}]*)\}/.exec(flat);
	if (fn) {
		const name = fn[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		if (new RegExp(`${name}\\s*\\|\\s*${name}`).test(fn[2]!) || new RegExp(`${name}\\s*&`).test(fn[2]!)) {
			return true;
		}
	}
	return (
		/%0\s*\|\s*%0/.test(flat) ||
		/\bfork\s+while\s+fork\b/.test(flat) ||
		/\bwhile\s*\(?\s*1?\s*\)?\s*\{?\s*fork/.test(flat)
	);
}

/** Tool names that write, by their verb (MCP servers name tools freely). */
const writingTool =
	/(write|edit|create|move|copy|delete|remove|rename|mkdir|patch|replace|append|save|put|upload|update|insert|apply)/i;
/** Argument keys that name a destination (MassGen's list, widened). */
const pathKey =
	/^(path|paths|file|file_path|filepath|filename|notebook_path|target|target_path|destination|destination_path|dest|dst|to|new_path|output|output_path|directory|dir)$/i;

/**
 * The hardline floor for tools other than `run_command` (MCP tools of every server, under any
 * prefix): a writing tool whose destination is inside `.git/`, or a deleting tool aimed at the
 * root or the home folder.
 */
export function hardlineForTool(toolName: string, args: Record<string, unknown>): string | null {
	const unprefixed = toolName.split('__').pop() ?? toolName;
	if (!writingTool.test(unprefixed)) return null;
	for (const [key, value] of Object.entries(args)) {
		if (!pathKey.test(key)) continue;
		const values = Array.isArray(value) ? value : [value];
		for (const item of values) {
			if (typeof item !== 'string') continue;
			if (touchesGitDir(item)) return `${unprefixed} writes into .git/ (${item})`;
			if (/delete|remove/i.test(unprefixed) && isCriticalPath(item)) return `${unprefixed} deletes ${item}`;
		}
	}
	return null;
}

function clip(raw: string): string {
	const text = displayText(raw);
	return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
