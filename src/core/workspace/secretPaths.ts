/**
 * The one secret-path policy (docs/threat-model.md): files that hold credentials are never read, listed,
 * searched, copied into a command's scratch copy or written, by any tool, at any depth. The
 * built-in list cannot be narrowed; the user may only add patterns (`secret_paths` in the config,
 * `massgen.secretPaths` in VS Code), and nothing a model sends can change either.
 * Every `.env*` file counts, `.env.example` included: a template is easy to copy to a name
 * outside the policy, while telling a template from a real file by its name is guesswork.
 *
 * What counts as the same name (`canonicalName`): the policy matches a name as the most lenient
 * file system we run on would open it. Case-insensitive (macOS and Windows are; ext4 is not, so
 * `.ENV` beside `.env` is a second file, and it is secret too); Unicode NFC (macOS normalises
 * NFD names: `.env` spelled with a decomposed character reaches the same file there); trailing dots
 * and spaces dropped (Windows opens `.env ` and `id_rsa.` as `.env` and `id_rsa`). Look-alikes
 * that are different names on every file system (`.env​`, a full-width `．env`) are not
 * secret by name: such a path reaches another file, unless it is a link to a secret, which the
 * symlink check (`createWorkspace`) and the hard-link check (`secretScan.ts`) catch by identity.
 */
import { compileGlob } from '../util/linearGlob.js';

export interface SecretPaths {
	/** The pattern a normalised workspace-relative path (or one of its folders) matches, or null. */
	match(path: string): string | null;
}

interface BuiltinRule {
	readonly pattern: string;
	/** Tests the lower-cased segments ending at one position of the path. */
	readonly test: (name: string, previous: string | undefined) => boolean;
	/** The pattern to report for a family of names (default: `pattern`). */
	readonly name?: (name: string) => string;
}

const credentialFiles = [
	'.npmrc',
	'.yarnrc.yml',
	'.pypirc',
	'.netrc',
	'_netrc',
	'.git-credentials',
	'kubeconfig',
	'.pgpass',
	'.my.cnf',
	'.vault-token',
	'.htpasswd',
	'.s3cfg',
	'.boto',
	'.dockercfg',
	'.terraformrc',
	'terraform.rc',
	'credentials.json',
	'service-account.json',
	'auth.json',
	'secrets.yaml',
	'secrets.yml',
	'secrets.json',
];
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const credentialFile = new RegExp(`^(?:${credentialFiles.map(literal).join('|')})(?:$|[._~-])`);
const keyStores = [
	'.p12',
	'.pfx',
	'.jks',
	'.keystore',
	'.kdbx',
	'.tfstate',
	'.tfstate.backup',
	'.tfvars',
	'.ovpn',
];
const keyStore = new RegExp(`(?:${keyStores.map(literal).join('|')})$`);

/** Case-insensitive on purpose: macOS and Windows file systems are. */
const builtinRules: readonly BuiltinRule[] = [
	// `.env` alone or followed by `.`, `-` or `_` (`.env.local`, `.env-production`, `.env_local`); not `.environment.md`.
	{ pattern: '.env*', test: (name) => /^\.env($|[._-])/.test(name) },
	{ pattern: '.envrc', test: (name) => name === '.envrc' },
	// Credential files of common tools, also as copies (`.npmrc.bak`, `.netrc~`, `.pgpass-old`): one
	// anchored alternation of literals, so the list's length costs nothing per path segment.
	{
		pattern: 'credential files',
		test: (name) => credentialFile.test(name),
		name: (name) => credentialFiles.find((file) => name.startsWith(file)) ?? name,
	},
	{ pattern: '.aws/', test: (name) => name === '.aws' },
	{ pattern: '.ssh/', test: (name) => name === '.ssh' },
	{ pattern: '.gnupg/', test: (name) => name === '.gnupg' },
	{ pattern: '.azure/', test: (name) => name === '.azure' },
	{ pattern: '.config/gcloud/', test: (name, previous) => name === 'gcloud' && previous === '.config' },
	{ pattern: '.config/gh/hosts.yml', test: (name, previous) => name === 'hosts.yml' && previous === 'gh' },
	{
		pattern: '.cargo/credentials*',
		test: (name, previous) => name.startsWith('credentials') && previous === '.cargo',
	},
	{ pattern: '.gem/credentials', test: (name, previous) => name === 'credentials' && previous === '.gem' },
	{ pattern: '.m2/settings.xml', test: (name, previous) => name === 'settings.xml' && previous === '.m2' },
	{
		pattern: '.gradle/gradle.properties',
		test: (name, previous) => name === 'gradle.properties' && previous === '.gradle',
	},
	{
		pattern: '.docker/config.json',
		test: (name, previous) => name === 'config.json' && previous === '.docker',
	},
	{ pattern: '.kube/config', test: (name, previous) => name === 'config' && previous === '.kube' },
	{ pattern: '*.pem', test: (name) => name.endsWith('.pem') },
	{ pattern: '*.key', test: (name) => name.endsWith('.key') },
	// Key stores, certificates with their keys, password databases, Terraform state and variables.
	{
		pattern: 'key stores',
		test: (name) => keyStore.test(name),
		name: (name) => `*${keyStores.find((extension) => name.endsWith(extension)) ?? ''}`,
	},
	...['id_rsa', 'id_ed25519', 'id_ecdsa', 'id_dsa'].map((prefix) => ({
		pattern: `${prefix}*`,
		test: (name: string) => name.startsWith(prefix),
	})),
];

/** Gitignore-like: a pattern without `/` matches a name at any depth, one with `/` the path from the root. */
/** Why a user pattern cannot be used, or null when it is fine. */
export function secretPatternProblem(pattern: string): string | null {
	if (pattern.trim() === '') return 'a secret path pattern may not be empty';
	if (pattern.startsWith('!')) {
		return `'${pattern}': negated patterns are not supported (secret paths can only be added)`;
	}
	if (pattern.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(pattern)) {
		return `'${pattern}' is absolute: write it relative to the workspace root (e.g. 'config/prod.yaml' or '*.secret')`;
	}
	if (pattern.split(/[\\/]/).includes('..')) return `'${pattern}' climbs out of the workspace ('..')`;
	return null;
}

/** Compiles the policy: the built-in patterns plus the user's (which must pass `secretPatternProblem`). */
export function secretPaths(extra: readonly string[] = []): SecretPaths {
	const user = extra.map((pattern) => {
		const problem = secretPatternProblem(pattern);
		if (problem !== null) throw new Error(`secret_paths: ${problem}`);
		const glob = pattern.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
		const anchored = glob.includes('/');
		return { pattern, anchored, matches: compileGlob(glob, { crossSlash: false, nocase: true }) };
	});
	return {
		match(given) {
			if (given === '.' || given === '') return null;
			const path = given.split('/').map(canonicalName).join('/');
			const segments = path.toLowerCase().split('/');
			for (let i = 0; i < segments.length; i++) {
				const rule = builtinRules.find((candidate) => candidate.test(segments[i]!, segments[i - 1]));
				if (rule) return rule.name?.(segments[i]!) ?? rule.pattern;
			}
			if (user.length === 0) return null;
			// A folder that matches makes everything inside it secret, as in .gitignore.
			const original = path.split('/');
			for (let i = 1; i <= original.length; i++) {
				const prefix = original.slice(0, i).join('/');
				const name = original[i - 1]!;
				const hit = user.find((rule) => rule.matches(rule.anchored ? prefix : name));
				if (hit) return hit.pattern;
			}
			return null;
		},
	};
}

/** One path segment as the policy compares it (see the module comment): NFC, no trailing dots or spaces. */
export function canonicalName(name: string): string {
	const trimmed = name.normalize('NFC').replace(/[. ]+$/, '');
	// `.` and `..` (and names of dots and spaces only) stay as they are.
	return trimmed === '' ? name : trimmed;
}

/** The built-in policy alone (callers that have no user additions). */
export const builtinSecretPaths: SecretPaths = secretPaths();
