/**
 * The risk classifier: what the permission engine decides when no rule matched. Low risk runs
 * without asking (reading inside the workspace copy); medium and high ask. High marks what
 * peers and MassGen agree is dangerous: network egress, publishing, force-push, privilege,
 * writing or deleting outside the workspace copy, and what defeats static reading
 * (substitutions, `eval`, nested shells).
 */
import { isOutside, looksLikePath, operands, optionValues } from './pathWords.js';
import type { CommandPart, ShellAnalysis, ShellFeature } from './shellAnalysis.js';
import { hasPlaceholder } from './shellCommand.js';

export type RiskLevel = 'low' | 'medium' | 'high';

export interface Risk {
	readonly level: RiskLevel;
	/** Why, most severe first; empty for plain reads. */
	readonly reasons: readonly string[];
}

const order: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 };

export function maxRisk(...risks: readonly Risk[]): Risk {
	let level: RiskLevel = 'low';
	const high: string[] = [];
	const medium: string[] = [];
	for (const risk of risks) {
		if (order[risk.level] > order[level]) level = risk.level;
		for (const reason of risk.reasons) {
			const list = risk.level === 'high' ? high : medium;
			if (!high.includes(reason) && !medium.includes(reason)) list.push(reason);
		}
	}
	return { level, reasons: [...high, ...medium] };
}

const featureRisk: Readonly<Record<ShellFeature, Risk>> = {
	substitution: { level: 'high', reasons: ['command substitution ($(…) or backticks)'] },
	'process-substitution': { level: 'high', reasons: ['process substitution (<(…))'] },
	eval: { level: 'high', reasons: ['eval'] },
	'nested-shell': { level: 'high', reasons: ['nested shell (sh -c)'] },
	heredoc: { level: 'medium', reasons: ['here-document'] },
	background: { level: 'medium', reasons: ['background job (stopped when the command ends)'] },
	subshell: { level: 'low', reasons: [] },
	'variable-program': { level: 'high', reasons: ['the program name comes from a variable or substitution'] },
	'too-deep': { level: 'high', reasons: ['nested too deeply to check'] },
	unbalanced: { level: 'high', reasons: ['unbalanced quotes or parentheses'] },
};

/** Features that no glob allow rule can wave through (only an exact rule for the whole line can). */
export const opaqueFeatures: ReadonlySet<ShellFeature> = new Set([
	'substitution',
	'process-substitution',
	'eval',
	'nested-shell',
	'variable-program',
	'too-deep',
	'unbalanced',
]);

/** Programs that only read (given no writing flags; see `readOnlyViolation`). */
const readers = new Set([
	'ls',
	'dir',
	'cat',
	'head',
	'tail',
	'wc',
	'pwd',
	'echo',
	'printf',
	'true',
	'false',
	'grep',
	'egrep',
	'fgrep',
	'rg',
	'ag',
	'ack',
	'find',
	'fd',
	'tree',
	'file',
	'stat',
	'du',
	'df',
	'which',
	'type',
	'whereis',
	'sort',
	'uniq',
	'cut',
	'tr',
	'diff',
	'cmp',
	'comm',
	'basename',
	'dirname',
	'realpath',
	'readlink',
	'date',
	'id',
	'whoami',
	'uname',
	'hostname',
	'nl',
	'column',
	'jq',
	'sha1sum',
	'sha256sum',
	'sha512sum',
	'md5sum',
	'shasum',
	'cksum',
	'od',
	'hexdump',
	'xxd',
	'strings',
	'test',
	'[',
	'seq',
	'sleep',
	'cd',
	'less',
	'more',
	'fold',
	'fmt',
	'paste',
	'join',
	'rev',
	'tac',
	'expand',
	'unexpand',
	'look',
	'command',
	'sed',
	'awk',
	'yes',
]);

/** git subcommands that only read (in the workspace copy there is no .git/ anyway). */
const gitReaders = new Set([
	'status',
	'diff',
	'log',
	'show',
	'rev-parse',
	'ls-files',
	'blame',
	'grep',
	'describe',
	'shortlog',
	'cat-file',
	'ls-tree',
	'rev-list',
	'version',
	'help',
]);

const network = new Set([
	'curl',
	'wget',
	'ssh',
	'scp',
	'sftp',
	'ftp',
	'telnet',
	'nc',
	'ncat',
	'netcat',
	'socat',
	'aria2c',
	'http',
	'https',
	'xh',
	'ping',
	'dig',
	'nslookup',
	'host',
	'whois',
	'mosh',
	'lftp',
	'iwr',
	'invoke-webrequest',
	'irm',
	'invoke-restmethod',
	'gh',
	'glab',
	'aws',
	'gcloud',
	'gsutil',
	'az',
	'kubectl',
	'helm',
	'terraform',
	'pulumi',
	'heroku',
	'vercel',
	'netlify',
	'flyctl',
	'fly',
	'doctl',
	'open',
	'xdg-open',
	'start',
]);
const privilege = new Set([
	'sudo',
	'doas',
	'su',
	'pkexec',
	'run0',
	'runuser',
	'runas',
	'chroot',
	'mount',
	'umount',
	'systemctl',
	'service',
	'launchctl',
	'crontab',
	'visudo',
	'passwd',
	'useradd',
	'userdel',
	'usermod',
	'setcap',
	'iptables',
	'ufw',
	'sysctl',
	'modprobe',
	'insmod',
]);
const deleters = new Set(['rm', 'rmdir', 'unlink', 'shred', 'trash', 'del', 'rd']);
const signals = new Set(['kill', 'pkill', 'killall']);
const packageManagers = new Set([
	'npm',
	'pnpm',
	'yarn',
	'bun',
	'pip',
	'pip3',
	'pipx',
	'uv',
	'poetry',
	'cargo',
	'go',
	'gem',
	'bundle',
	'composer',
	'brew',
	'apt',
	'apt-get',
	'yum',
	'dnf',
	'pacman',
	'apk',
	'zypper',
	'snap',
	'choco',
	'winget',
	'conda',
	'mamba',
	'dotnet',
	'mvn',
	'gradle',
	'deno',
]);
const installVerbs = new Set([
	'install',
	'i',
	'add',
	'ci',
	'update',
	'upgrade',
	'up',
	'get',
	'dlx',
	'sync',
	'remove',
	'uninstall',
	'rm',
	'restore',
	'fetch',
	'x',
]);
const publishVerbs = new Set(['publish', 'upload', 'push', 'release', 'deploy']);
const publishers = new Set(['twine', 'vsce', 'ovsx', 'npx-publish']);
const inlineCode: Readonly<Record<string, RegExp>> = {
	python: /^-[a-zA-Z]*c$/,
	python3: /^-[a-zA-Z]*c$/,
	python2: /^-[a-zA-Z]*c$/,
	node: /^(-e|-p|--eval|--print)$/,
	deno: /^eval$/,
	bun: /^(-e|--eval)$/,
	perl: /^-[a-zA-Z]*[eE]$/,
	ruby: /^-[a-zA-Z]*e$/,
	php: /^-r$/,
	pwsh: /^-(c|command)$/i,
	powershell: /^-(c|command)$/i,
};
const loaderVariables =
	/^(PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_[A-Z_]+|NODE_OPTIONS|PYTHONPATH|BASH_ENV|ENV|PROMPT_COMMAND|GIT_[A-Z_]+)=/;

/**
 * Classifies a command line: the maximum over its features and every part. `cwd` is the
 * workspace-relative folder it runs in.
 */
export function classifyCommand(analysis: ShellAnalysis, cwd = '.'): Risk {
	return maxRisk(
		classifyFeatures(analysis.features),
		...analysis.parts.map((part) => classifyPart(part, cwd)),
	);
}

/** The risk of a line's shell features alone. */
export function classifyFeatures(features: ReadonlySet<ShellFeature>): Risk {
	return maxRisk(...[...features].map((feature) => featureRisk[feature]));
}

const high = (...reasons: string[]): Risk => ({ level: 'high', reasons });
const medium = (...reasons: string[]): Risk => ({ level: 'medium', reasons });
const low: Risk = { level: 'low', reasons: [] };

/** One part on its own (its features are weighed by `classifyCommand`). */
export function classifyPart(part: CommandPart, cwd = '.'): Risk {
	const risks: Risk[] = [];
	for (const redirect of part.redirects) {
		const writes =
			redirect.op !== '<' && redirect.op !== '<<' && redirect.op !== '<<<' && redirect.op !== '<&';
		if (redirect.op === '<<' || redirect.op === '<<<') continue;
		if (isOutside(redirect.target, cwd)) {
			risks.push(
				writes
					? high(`writes outside the workspace copy (${redirect.target})`)
					: medium(`reads outside the workspace copy (${redirect.target})`),
			);
		} else if (writes) risks.push(medium('writes a file in the workspace copy'));
	}
	for (const assignment of part.assignments) {
		if (loaderVariables.test(assignment)) risks.push(high(`changes ${assignment.split('=')[0]}`));
	}
	for (const wrapper of part.wrappers) {
		if (privilege.has(wrapper)) risks.push(high(`privilege escalation (${wrapper})`));
	}
	if (part.wrappers.includes('xargs')) risks.push(medium('runs a program on every input line (xargs)'));
	const { program, name } = part;
	if (name === '') return maxRisk(...risks);
	const first = program[0]!;
	if (/[*?[\]{}$]/.test(first) || hasPlaceholder(first)) {
		return maxRisk(...risks, high('the program name is a pattern or variable'));
	}
	if (first.includes('/') || first.includes('\\')) risks.push(medium(`runs a program by path (${first})`));
	risks.push(classifyProgram(part, cwd));
	return maxRisk(...risks);
}

function classifyProgram(part: CommandPart, cwd: string): Risk {
	const { program, name } = part;
	const args = program.slice(1);
	const verb = operands(args)[0] ?? '';
	const paths = [...operands(args), ...optionValues(args)].filter((word) => looksLikePath(word));
	const outside = paths.filter((word) => isOutside(word, cwd));
	const outsideNote = outside.length > 0 ? ` (${outside.slice(0, 3).join(', ')})` : '';

	if (privilege.has(name)) return high(`privilege or system change (${name})`);
	if (
		deleters.has(name) ||
		(name === 'find' && args.includes('-delete')) ||
		(name === 'git' && verb === 'clean')
	) {
		return outside.length > 0
			? high(`deletes outside the workspace copy${outsideNote}`)
			: medium('deletes files in the workspace copy');
	}
	if (name === 'git') return classifyGit(args, verb);
	if (network.has(name)) return high(`network access (${name})`);
	if (
		publishers.has(name) ||
		(packageManagers.has(name) && publishVerbs.has(verb)) ||
		(name === 'docker' && verb === 'push')
	) {
		return high(`publishes (${name} ${verb})`.trim());
	}
	if (name === 'npx' || name === 'bunx' || name === 'pnpx' || name === 'uvx') {
		return high(`downloads and runs a package (${name})`);
	}
	if (packageManagers.has(name) && installVerbs.has(verb)) {
		return high(
			`installs packages over the network (${name} ${verb}); dependency folders are shared with the real workspace`,
		);
	}
	if (
		(name === 'pip' || name === 'pip3' || name === 'python' || name === 'python3') &&
		args.includes('install')
	) {
		return high(`installs packages over the network (${name})`);
	}
	if (name === 'docker' || name === 'podman') return high(`container engine (${name} ${verb})`.trim());
	if (signals.has(name)) return high(`signals other processes (${name})`);
	if (
		(name === 'chmod' || name === 'chown' || name === 'chgrp') &&
		args.some((a) => /(^|[ugoa,])[+=][rwx]*s/.test(a) || /^[0-7]?[4-7][0-7]{3}$/.test(a))
	) {
		return high('sets a setuid/setgid bit');
	}
	const inline = inlineCode[name];
	if (inline !== undefined && args.some((a) => inline.test(a))) return high(`runs inline code (${name})`);
	if (readers.has(name)) {
		const violation = readOnlyViolation(name, args);
		if (violation !== null) {
			return outside.length > 0
				? high(`${violation} outside the workspace copy${outsideNote}`)
				: medium(violation);
		}
		if (name === 'cd') {
			return outside.length > 0 ? high(`changes to a folder outside the workspace copy${outsideNote}`) : low;
		}
		return outside.length > 0 ? medium(`reads outside the workspace copy${outsideNote}`) : low;
	}
	if (outside.length > 0) return high(`touches paths outside the workspace copy${outsideNote}`);
	return medium(`runs a program (${name})`);
}

/** Why an otherwise reading program would write or run something, or null. */
function readOnlyViolation(name: string, args: readonly string[]): string | null {
	if (
		name === 'find' &&
		args.some((a) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a))
	) {
		return 'find runs or writes';
	}
	if (name === 'sed' && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) {
		return 'edits files in place';
	}
	if (name === 'sed' && args.some((a) => /(^|;|\s)\s*[0-9,$/]*\s*[we]\s/.test(`${a} `))) {
		return 'sed writes files or runs commands';
	}
	if (name === 'awk' && args.some((a) => /system\s*\(|\|\s*"|print\s*>|getline/.test(a))) {
		return 'awk runs commands or writes files';
	}
	if (name === 'sort' && args.some((a) => a === '-o' || a.startsWith('--output'))) {
		return 'writes the sorted output to a file';
	}
	if (name === 'command' && !/^-[vV]$/.test(args[0] ?? '')) return 'runs a program';
	if (name === 'yes') return 'writes forever';
	return null;
}

function classifyGit(args: readonly string[], verb: string): Risk {
	if (verb === 'push') {
		const force = args.some(
			(a) =>
				a === '-f' ||
				a === '--force' ||
				a.startsWith('--force-with-lease') ||
				a === '--mirror' ||
				a === '--delete' ||
				/^\+/.test(a) ||
				/^-[a-zA-Z]*f/.test(a),
		);
		return force
			? high('force push (rewrites the remote history)', 'network access (git push)')
			: high('network access (git push)');
	}
	if (
		['pull', 'fetch', 'clone', 'ls-remote', 'submodule', 'remote'].includes(verb) &&
		!(verb === 'remote' && args.every((a) => a === 'remote' || a === '-v'))
	) {
		return high(`network access (git ${verb})`);
	}
	if (
		args.some((a) => a.startsWith('--git-dir') || a.startsWith('--work-tree') || a === '-C' || a === '-c')
	) {
		return medium('git with a redirected repository or config');
	}
	if (
		gitReaders.has(verb) ||
		(verb === 'branch' &&
			args.every((a) => !/^-[a-zA-Z]*[dDmMcC]$/.test(a) && !/^--(delete|move|copy)/.test(a)))
	) {
		return low;
	}
	return medium(`changes the repository (git ${verb})`);
}

/** MCP tool annotations (hints from the server; the user configured the server). */
export interface ToolHints {
	readonly readOnlyHint?: boolean;
	readonly destructiveHint?: boolean;
	readonly openWorldHint?: boolean;
}

/** Risk of an MCP tool call from its annotations: read-only closed-world tools are low. */
export function classifyMcpTool(target: string, hints: ToolHints | undefined): Risk {
	if (hints?.readOnlyHint === true && hints.openWorldHint !== true) return low;
	if (hints?.destructiveHint === true) return high(`MCP tool ${target} may be destructive`);
	if (hints?.readOnlyHint === true) return medium(`MCP tool ${target} reads from outside (open world)`);
	return medium(`MCP tool ${target} is not marked read-only`);
}
