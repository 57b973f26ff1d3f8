// In-host: a team (the user's config file) whose only member has no key. Ask Team says the key is
// missing; once the user stores it (Set API Key writes the same key store), the next Ask runs the
// team with it: nothing of the refused attempt (its team resolution, its Problems entry) is kept.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { KeyStore } from '../../src/vscode/common/secrets';
import { startLoopbackProvider, type LoopbackProvider } from '../servers/loopbackProvider';
import { useConfig } from './hostWaits';
import { type OwnPanel, openOwnPanel } from './ownPanel';

describe('A missing key, then Set API Key (in VS Code, loopback team)', function () {
	this.timeout(60_000);
	let own: OwnPanel;
	let server: LoopbackProvider;
	const stored = new Map<string, string>();
	const keys = new KeyStore({
		get: async (key) => stored.get(key),
		store: async (key, value) => void stored.set(key, value),
		delete: async (key) => void stored.delete(key),
	});
	let dir: string;
	let file: string;
	/** The Problems view's errors on the team file (every collection's, the test graph's included). */
	const problems = () =>
		vscode.languages
			.getDiagnostics(vscode.Uri.file(file))
			.filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
			.map((d) => d.message);

	before(async () => {
		const extension = vscode.extensions.getExtension('massgen.massgen-vscode');
		assert.ok(extension);
		await extension.activate();
		server = await startLoopbackProvider('chat', { auto: { name: 'solo' } });
		// A file the user named (not the workspace's own): no Workspace Trust question for its server.
		dir = mkdtempSync(join(tmpdir(), 'massgen-key-fixed-'));
		file = join(dir, 'solo.yaml');
		writeFileSync(
			file,
			`agents:\n  - id: solo\n    backend: { type: cerebras, model: llama-3.3-70b, base_url: '${server.baseUrl}' }\n`,
		);
		await useConfig(file);
		own = await openOwnPanel(extension, 'MassGen key fixed test', { env: {}, keys });
	});

	after(async () => {
		own?.dispose();
		await useConfig(undefined);
		rmSync(dir, { recursive: true, force: true });
		await server?.close();
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	it('the first Ask is refused for the missing key; after the key is stored, the next Ask runs the team', async () => {
		const question = 'Say hello';
		const refused = await own.runs.tryStart({ question, kind: 'ask' });
		assert.ok('refused' in refused, 'no key: the run does not start');
		assert.match(refused.reason, /CEREBRAS_API_KEY/);
		assert.equal(server.requests.length, 0);
		assert.ok(
			problems().some((message) => message.includes('CEREBRAS_API_KEY')),
			`the missing key is a problem at the agent: ${JSON.stringify(problems())}`,
		);

		await keys.set('CEREBRAS_API_KEY', 'csk-loopback-key');
		const outcome = await own.runs.tryStart({ question, kind: 'ask' });
		assert.ok(
			'run' in outcome,
			`the key is stored: the run starts (refused: ${'reason' in outcome ? outcome.reason : ''})`,
		);
		assert.equal(outcome.run.result.status, 'completed', outcome.run.result.error);
		assert.ok(server.requests.length > 0, 'the member was called');
		assert.deepEqual(problems(), [], 'the old missing-key problem is gone from the Problems view');
	});
});
