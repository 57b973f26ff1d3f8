import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';
import { runDirs } from '../../support/runDir.js';

const secret = 'sk-live-attached-secret-7f3a9c';
const note = 'The parser drops the last token when the input ends without a newline.\n';
const piped = 'stack trace: at parse (src/a.ts:3:7) TypeError: token is undefined';
const png = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	Buffer.from('pixels'),
]);
const pngBase64 = png.toString('base64');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDKs' request bodies, read by protocol below
type Body = Record<string, any>;
/** Each protocol's first user message content, read from the raw wire body. */
const firstUserContent: Record<string, (body: Body) => unknown> = {
	responses: (body) => body['input'][0].content,
	chat: (body) => body['messages'].find((m: { role: string }) => m.role === 'user').content,
	anthropic: (body) => body['messages'][0].content,
	gemini: (body) => body['contents'][0].parts,
};
/** The image in each protocol's own shape. */
const expectedImage: Record<string, unknown> = {
	responses: { type: 'input_image', image_url: `data:image/png;base64,${pngBase64}`, detail: 'auto' },
	chat: { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
	anthropic: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64 } },
	gemini: { inlineData: { mimeType: 'image/png', data: pngBase64 } },
};

/** A repository with one committed change in a.ts and one in .env (a secret path). */
function repoWorkspace(config: string): string {
	const root = makeWorkspaceDir({
		'src/a.ts': 'export const a = 1;\n',
		'.env': 'API_KEY=old\n',
		'notes/bug.md': note,
	});
	const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
	git('init', '-q');
	git('add', '.');
	git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
	writeFileSync(join(root, 'src/a.ts'), 'export const a = 2;\n');
	writeFileSync(join(root, '.env'), `API_KEY=${secret}\n`);
	writeFileSync(join(root, 'team.yaml'), config);
	writeFileSync(join(root, 'shot.png'), png);
	return root;
}

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile())
		.map((entry) => join(entry.parentPath, entry.name));
}

/** Issue 12's CLI: --attach, --attach-diff and stdin reach every agent's first request, whatever its protocol. */
describe('massgen run with attachments (dist/cli.js, four SDKs)', () => {
	let team: LoopbackTeam;
	beforeAll(async () => {
		team = await startLoopbackTeam();
	});
	afterAll(() => team.close());
	const requestCount = () =>
		Object.values(team.servers).reduce((sum, server) => sum + server.requests.length, 0);

	it('gives every agent the file, the diff hunk, the piped text and the image in its own shape, and records them without contents', async () => {
		const root = repoWorkspace(team.configYaml());
		expect(readFileSync(join(root, '.env'), 'utf8')).toContain(secret);
		const before = Object.fromEntries(Object.entries(team.servers).map(([p, s]) => [p, s.requests.length]));
		const run = await runCli(
			[
				'run',
				'--config',
				'team.yaml',
				'--attach',
				'notes/bug.md',
				'--attach-diff',
				'--attach',
				'shot.png',
				'Why does parse fail?',
				'-',
			],
			{ cwd: root, input: piped },
		);
		expect(run.stderr).toContain(
			'attached: file notes/bug.md, image shot.png, diff working-tree, text stdin',
		);
		expect(run.code).toBe(0);
		for (const [protocol, server] of Object.entries(team.servers)) {
			const first = server.requests[before[protocol]!]!;
			const prompt = first.prompt.texts.join('\n');
			expect(prompt, protocol).toContain(
				`<attachment kind="file" source="notes/bug.md">\n${note}</attachment>`,
			);
			expect(prompt, protocol).toContain('-export const a = 1;\n+export const a = 2;');
			expect(prompt, protocol).toContain(`<attachment kind="text" source="stdin">\n${piped}\n</attachment>`);
			expect(prompt, protocol).toContain("[left out .env: refused: '.env' is a secret path");
			expect(prompt, protocol).toContain('(image/png image, 14 B: image input 1 of this message)');
			expect(firstUserContent[protocol]!(first.body as Body), protocol).toContainEqual(
				expectedImage[protocol],
			);
			for (const request of server.requests.slice(before[protocol])) {
				expect(request.rawBody).not.toContain(secret);
			}
		}
		const [dir] = runDirs(root);
		const result = JSON.parse(readFileSync(join(dir!, 'result.json'), 'utf8'));
		const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
		expect(result.attachments).toEqual([
			{ kind: 'file', source: 'notes/bug.md', bytes: Buffer.byteLength(note), sha256: sha(note) },
			{ kind: 'image', source: 'shot.png', mediaType: 'image/png', bytes: png.byteLength, sha256: sha(png) },
			expect.objectContaining({ kind: 'diff', source: 'working-tree' }),
			{ kind: 'text', source: 'stdin', bytes: Buffer.byteLength(piped), sha256: sha(piped) },
		]);
		// The secret is on disk, and nowhere the run wrote or printed.
		for (const file of filesUnder(dir!)) expect(readFileSync(file, 'utf8'), file).not.toContain(secret);
		expect(run.stdout + run.stderr).not.toContain(secret);
		// Contents stay in the prompts: the records hold no attachment text.
		expect(readFileSync(join(dir!, 'events.jsonl'), 'utf8')).not.toContain('the last token');
	});

	it('tells on stderr, once per agent, that a text-only model gets the text attachments without the image', async () => {
		const reader = {
			id: 'reader',
			backend: {
				type: 'scripted',
				model: 'text-only',
				script: { coordination: [{ answer: 'A text-only answer.' }, { vote: 'first', reason: 'ok' }] },
			},
		};
		const config = stringify({ agents: [team.agents[0], reader] });
		const root = repoWorkspace(config);
		const run = await runCli(
			['run', '--config', 'team.yaml', '--attach', 'shot.png', '--attach', 'notes/bug.md', 'What is shown?'],
			{ cwd: root },
		);
		expect(run.code, run.stderr).toBe(0);
		const notices = run.stderr.split('\n').filter((line) => line.includes('notice:'));
		expect(notices).toEqual([
			'notice: reader (scripted/text-only) cannot take images: it gets the text attachments only',
		]);
		const events = readFileSync(join(runDirs(root)[0]!, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(events.filter((event) => event.type === 'notice')).toEqual([
			expect.objectContaining({ agentId: 'reader', seq: 1 }),
		]);
	});

	it('reads the question from stdin when - stands alone', async () => {
		const root = repoWorkspace(team.configYaml());
		const run = await runCli(['run', '--config', 'team.yaml', '-'], {
			cwd: root,
			input: 'What does a.ts export?\n',
		});
		expect(run.code).toBe(0);
		const result = JSON.parse(readFileSync(join(runDirs(root)[0]!, 'result.json'), 'utf8'));
		expect(result.question).toBe('What does a.ts export?');
		expect(result.attachments).toBeUndefined();
	});

	it('exits 2 with the reason, before any run or request, for an attachment it cannot give', async () => {
		const root = repoWorkspace(team.configYaml());
		const plain = makeWorkspaceDir({ 'team.yaml': team.configYaml() });
		const big = Buffer.alloc(6 * 1024 * 1024);
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
		writeFileSync(join(root, 'huge.png'), big);
		const cases: { args: string[]; cwd?: string; input?: string; message: RegExp }[] = [
			{ args: ['--attach', '.env'], message: /cannot attach '.*\.env': refused: '.*\.env' is a secret path/ },
			{ args: ['--attach', 'missing.ts'], message: /cannot attach '.*missing.ts': no such file or folder/ },
			{ args: ['--attach', 'huge.png'], message: /the image is 6 MiB, over the 5 MiB cap for an image/ },
			{
				args: ['--attach-diff'],
				cwd: plain,
				message: /cannot attach the git diff: '.*' is not in a git repository/,
			},
			{ args: ['-'], input: '', message: /stdin \(-\) was empty/ },
		];
		for (const { args, cwd, input, message } of cases) {
			const requests = requestCount();
			const run = await runCli(['run', '--config', 'team.yaml', ...args, 'review this'], {
				cwd: cwd ?? root,
				...(input === undefined ? {} : { input }),
			});
			expect(run.code, args.join(' ')).toBe(2);
			expect(run.stderr).toMatch(message);
			expect(run.stderr).not.toContain(secret);
			expect(requestCount()).toBe(requests);
		}
		expect(runDirs(root)).toEqual([]);
		expect(runDirs(plain)).toEqual([]);
	});
});
