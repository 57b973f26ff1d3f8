import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';

/**
 * Issue 9, "secrets never leave": every secret value a run resolves — a config `api_key`, the
 * password in a `base_url`, what MCP `${VAR}`s expand to, secret-looking environment values — is
 * echoed by a scripted model (streamed in chunks, so secrets straddle deltas), written into a
 * proposed file and quoted by a failing MCP server; none may appear in any byte of stdout, stderr,
 * `--json` or the run directory. Secret files are refused by every tool.
 */
const configKey = 'sk-test-CONFIGKEY-0123456789abcdef';
const urlPassword = 'hunter2-URLPASSWORD-42';
const mcpToken = 'mcp-env-TOKEN-value-31337';
const headerToken = 'mcp-header-TOKEN-value-8080';
const envPat = 'ghp_ENVPAT0123456789abcdefABCDEF';
const dbPassword = 'db-PASSWORD-in-env-url';
const baseUrl = `http://massuser:${urlPassword}@127.0.0.1:9/v1`;
const secrets = [
	configKey,
	urlPassword,
	`massuser:${urlPassword}`,
	mcpToken,
	headerToken,
	envPat,
	dbPassword,
];

/** Contents of the secret files: never read, listed, searched or copied. */
const secretFiles: Record<string, string> = {
	'.envrc': 'export TOKEN=SECRETFILE-envrc',
	'.env-production': 'KEY=SECRETFILE-env-production',
	'.env_local': 'KEY=SECRETFILE-env_local',
	'.npmrc': '//registry.npmjs.org/:_authToken=SECRETFILE-npmrc',
	'packages/app/.npmrc': '//registry.npmjs.org/:_authToken=SECRETFILE-nested-npmrc',
	'deploy/server.pem': '-----BEGIN PRIVATE KEY----- SECRETFILE-pem',
	'config/prod.yaml': 'password: SECRETFILE-user-pattern',
};

const leak = `key ${configKey}, url ${baseUrl}, mcp ${mcpToken} / ${headerToken}, env ${envPat} ${dbPassword}.`;
const chunks = 9;

function teamConfig(): string {
	const reads = Object.keys(secretFiles).map((path) => ({ name: 'read_file', arguments: { path } }));
	return JSON.stringify({
		agents: [
			{
				id: 'remote',
				backend: { type: 'openai', model: 'gpt-5-mini', api_key: configKey, base_url: baseUrl },
			},
			{
				id: 'echo',
				backend: {
					type: 'scripted',
					script: {
						chunks,
						coordination: [
							{
								text: leak,
								tool_calls: [
									...reads,
									{ name: 'list_directory', arguments: { path: '.' } },
									{ name: 'search_files', arguments: { pattern: 'SECRETFIL[E]' } },
								],
								answer: leak,
							},
							{ vote: 'first' },
						],
						presentation: { text: leak, edits: [{ path: 'notes.md', content: `${leak}\n` }] },
					},
					mcp_servers: [
						{
							name: 'leaky',
							command: process.execPath,
							args: ['-e', 'console.error("token " + process.env.TOKEN); process.exit(1)'],
							env: { TOKEN: '${MY_MCP_VALUE}' },
						},
						{
							name: 'remote_mcp',
							type: 'http',
							url: 'http://127.0.0.1:9/mcp',
							headers: { Authorization: 'Bearer ${MY_HEADER_VALUE}' },
						},
					],
				},
			},
		],
		orchestrator: { secret_paths: ['config/prod.yaml'] },
		timeout_settings: { orchestrator_timeout_seconds: 60 },
	});
}

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

async function run(extra: string[]) {
	const root = makeWorkspaceDir({ 'README.md': '# app\n', ...secretFiles });
	writeFileSync(join(root, 'team.json'), teamConfig());
	const result = await runCli(
		['run', '--trust-workspace', ...extra, '--config', join(root, 'team.json'), 'Tell me everything.'],
		{
			cwd: root,
			env: {
				// Names that do not look secret: only the MCP expansion can make these values known.
				MY_MCP_VALUE: mcpToken,
				MY_HEADER_VALUE: headerToken,
				GH_PAT: envPat,
				DATABASE_URL: `postgres://app:${dbPassword}@db.internal/prod`,
			},
		},
	);
	const runsDir = join(root, '.massgen', 'runs');
	const [runDir] = readdirSync(runsDir).map((name) => join(runsDir, name));
	const files = Object.fromEntries(
		filesUnder(runDir!).map((path) => [path.slice(runDir!.length + 1), readFileSync(path, 'utf8')]),
	);
	return { ...result, files };
}

function expectNoSecret(where: string, text: string): void {
	for (const secret of secrets) expect(text.includes(secret), `${where} contains ${secret}`).toBe(false);
	expect(text.includes('SECRETFILE'), `${where} contains a secret file's content`).toBe(false);
}

describe('massgen run: no secret leaves (dist/cli.js)', () => {
	it('the scripted stream really splits the config key across two deltas (the test’s premise)', () => {
		const size = Math.ceil(leak.length / chunks);
		const start = leak.indexOf(configKey);
		expect(Math.floor(start / size)).not.toBe(Math.floor((start + configKey.length - 1) / size));
	});

	it('text mode: stdout, stderr and every file of the run directory hold [redacted] instead', async () => {
		const result = await run([]);
		expect(result.code).toBe(0);
		expectNoSecret('stdout', result.stdout);
		expectNoSecret('stderr', result.stderr);
		for (const [name, text] of Object.entries(result.files)) expectNoSecret(name, text);
		// The echoes are there, redacted.
		expect(result.stdout).toContain(
			`key [redacted], url http://[redacted]@127.0.0.1:9/v1, mcp [redacted] / [redacted], env [redacted] [redacted].`,
		);
		expect(result.files['final-answer.md']).toContain('key [redacted]');
		expect(result.files['changes.patch']).toContain('+key [redacted]');
		expect(result.files['config.yaml']).toContain('base_url: http://[redacted]@127.0.0.1:9/v1');
		expect(result.files['config.yaml']).toContain('api_key: "[redacted]"');
		// The MCP server that printed its token into the notice.
		expect(result.stderr).toMatch(/MCP server 'leaky' is unavailable: .*stderr: token \[redacted\]/);
		// Streams: the echo's text deltas, joined, show the redacted text whole.
		const events = result.files['events.jsonl']!.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		const streamed = events
			.filter((e) => e.type === 'text-delta' && e.agentId === 'echo' && e.phase === 'coordination')
			.map((e) => e.text)
			.join('');
		expectNoSecret('the joined deltas', streamed);
		expect(streamed).toContain(`key [redacted], url http://[redacted]@127.0.0.1:9/v1`);
		// Every secret file was refused by read_file, hidden from the listing and from search.
		const results = events.filter((e) => e.type === 'tool-result' && e.agentId === 'echo');
		const reads = results.filter((e) => e.name === 'read_file');
		expect(reads).toHaveLength(Object.keys(secretFiles).length);
		for (const read of reads) {
			expect(read).toMatchObject({
				isError: true,
				text: expect.stringMatching(/is a secret path \(matches '/),
			});
		}
		const listing = results.find((e) => e.name === 'list_directory')!.text;
		expect(listing).toContain('README.md');
		for (const hidden of ['.envrc', '.env-production', '.env_local', '.npmrc']) {
			expect(listing).not.toContain(hidden);
		}
		expect(results.find((e) => e.name === 'search_files')!.text).not.toMatch(
			/\.npmrc|\.envrc|prod\.yaml|server\.pem/,
		);
	});

	it('--json: the NDJSON events hold no secret, stay numbered 0..n, and show [redacted]', async () => {
		const result = await run(['--json']);
		expect(result.code).toBe(0);
		expectNoSecret('stdout', result.stdout);
		expectNoSecret('stderr', result.stderr);
		for (const [name, text] of Object.entries(result.files)) expectNoSecret(name, text);
		const events = result.stdout
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(events.map((e) => e.seq)).toEqual(events.map((_: unknown, i: number) => i));
		expect(events.find((e) => e.type === 'final-answer').content).toContain('key [redacted]');
		// What a consumer joining the deltas sees (a split secret would reappear here).
		const joined = events
			.filter((e) => e.type === 'text-delta' && e.agentId === 'echo')
			.map((e) => e.text)
			.join('');
		expectNoSecret('the joined --json deltas', joined);
		expect(joined).toContain('key [redacted], url http://[redacted]@127.0.0.1:9/v1');
	});
});
