import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { policyRefusal } from '../../../src/core/workspace/pathPolicy.js';
import {
	builtinSecretPaths,
	secretPaths,
	secretPatternProblem,
} from '../../../src/core/workspace/secretPaths.js';

/** Every built-in pattern, at the root, at depth and in other cases. */
const secret = [
	'.env',
	'.env.local',
	'.env-production',
	'.env_local',
	'.env.example',
	'.envrc',
	'.ENV',
	'config/.Env.Production',
	'.npmrc',
	'packages/app/.npmrc',
	'.pypirc',
	'.netrc',
	'_netrc',
	'.git-credentials',
	'.aws/credentials',
	'home/.AWS/config',
	'.ssh/known_hosts',
	'deploy/.ssh/id_ed25519.pub',
	'.docker/config.json',
	'ci/.docker/config.json',
	'certs/server.pem',
	'CERT.PEM',
	'tls/server.key',
	'id_rsa',
	'keys/id_rsa.pub',
	'id_ed25519',
	'id_ecdsa_sk',
	'kubeconfig',
	'ops/KubeConfig',
	'.kube/config',
	'a/b/c/d/e/.env',
	'.env/lib/site.py',
	// Other toolchains' credential files, and copies of them.
	'.npmrc.bak',
	'.netrc~',
	'.yarnrc.yml',
	'.pgpass',
	'db/.my.cnf',
	'.vault-token',
	'.htpasswd',
	'.s3cfg',
	'.boto',
	'.dockercfg',
	'.terraformrc',
	'credentials.json',
	'keys/service-account.json',
	'auth.json',
	'deploy/secrets.yaml',
	'config/secrets.yml',
	'infra/terraform.tfstate',
	'infra/terraform.tfstate.backup',
	'prod.tfvars',
	'certs/store.p12',
	'certs/store.pfx',
	'android/release.jks',
	'release.keystore',
	'vault.kdbx',
	'vpn/office.ovpn',
	'.gnupg/secring.gpg',
	'.azure/accessTokens.json',
	'.config/gcloud/credentials.db',
	'.config/gh/hosts.yml',
	'.cargo/credentials.toml',
	'.gem/credentials',
	'.m2/settings.xml',
	'.gradle/gradle.properties',
];

/** Near misses that stay readable. */
const ordinary = [
	'environment.ts',
	'src/env.ts',
	'src/key.ts',
	'keys/README.md',
	'src/keyboard.key.ts',
	'npmrc.md',
	'docker/config.json',
	'.docker/daemon.json',
	'kube/config',
	'config',
	'my_id_rsa_notes.md',
	'pem.txt',
	'docs/environment-setup.md',
	'.environment.md',
	'.envs.txt',
	'.github/workflows/ci.yml',
	'.',
	'gradle.properties',
	'settings.xml',
	'src/auth.ts',
	'hosts.yml',
	'docs/credentials.md',
	'secrets/README.md',
	'package.json',
];

describe('the secret-path policy', () => {
	it.each(secret)('refuses %s', (path) => {
		expect(builtinSecretPaths.match(path)).not.toBeNull();
		for (const mode of ['read', 'write'] as const) {
			expect(policyRefusal(path, path, mode, [])).toMatch(/is a secret path \(matches '.+'\)/);
		}
	});

	it.each(ordinary)('allows %s', (path) => {
		expect(builtinSecretPaths.match(path)).toBeNull();
		expect(policyRefusal(path, path, 'read', [])).toBeNull();
	});

	it('says why and that no tool argument lifts it', () => {
		expect(policyRefusal('app/.npmrc', 'app/.npmrc', 'read', [])).toBe(
			"refused: 'app/.npmrc' is a secret path (matches '.npmrc'): agents never read, list, search, copy or write secret files, and no tool argument can allow it",
		);
	});

	it('adds user globs: names at any depth, paths from the root, folders with everything inside, any case', () => {
		const policy = secretPaths(['*.secret', 'config/prod.yaml', 'vault', 'deploy/**/token*']);
		expect(policy.match('a/b/db.SECRET')).toBe('*.secret');
		expect(policy.match('config/prod.yaml')).toBe('config/prod.yaml');
		expect(policy.match('Config/Prod.yaml')).toBe('config/prod.yaml');
		expect(policy.match('other/config/prod.yaml')).toBeNull();
		expect(policy.match('vault/keys/main.txt')).toBe('vault');
		expect(policy.match('x/vault')).toBe('vault');
		expect(policy.match('deploy/eu/west/token.txt')).toBe('deploy/**/token*');
		expect(policy.match('src/app.ts')).toBeNull();
		// The built-in list still applies: user patterns only add.
		expect(policy.match('.env')).toBe('.env*');
		expect(policyRefusal('vault/a.txt', 'vault/a.txt', 'read', [], policy)).toMatch(
			/secret path \(matches 'vault'\)/,
		);
	});

	it('rejects patterns that cannot be honoured, with the reason', () => {
		expect(secretPatternProblem('!keep.env')).toMatch(/negated patterns are not supported/);
		expect(secretPatternProblem('/etc/passwd')).toMatch(/is absolute/);
		expect(secretPatternProblem('../outside')).toMatch(/climbs out/);
		expect(secretPatternProblem(' ')).toMatch(/may not be empty/);
		expect(secretPatternProblem('secrets/**')).toBeNull();
		expect(() => secretPaths(['/abs'])).toThrow(/secret_paths: '\/abs' is absolute/);
	});

	it("the config's secret_paths is validated: a clear file:line:col error, and good patterns load", () => {
		const bad = loadConfigText(
			'agent:\n  backend: {type: ollama, model: m}\norchestrator:\n  secret_paths: ["*.secret", "/etc/shadow"]\n',
			'team.yaml',
		);
		expect(bad.issues).toEqual([
			expect.objectContaining({
				severity: 'error',
				line: 4,
				message: expect.stringMatching(
					/'\/etc\/shadow' is absolute: write it relative to the workspace root/,
				),
			}),
		]);
		const good = loadConfigText(
			'agent:\n  backend: {type: ollama, model: m}\norchestrator:\n  secret_paths: ["*.secret"]\n',
			'team.yaml',
		);
		expect(good.config?.orchestrator.secret_paths).toEqual(['*.secret']);
	});
});
