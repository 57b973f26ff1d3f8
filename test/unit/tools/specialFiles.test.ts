/**
 * Special files (FIFOs, sockets, devices) in a workspace are never opened for a blocking read.
 * A FIFO's plain `open` waits for a writer forever and holds one of libuv's four pool threads:
 * every case below would hang (and fail on the test timeout) if the defence broke, and the
 * "five at once" cases would freeze every later file operation of the process.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDotenv } from '../../../src/core/config/apiKeys.js';
import { loadConfigFile } from '../../../src/core/config/loadConfig.js';
import { AttachmentError } from '../../../src/core/context/attachment.js';
import { resolveAttachments } from '../../../src/core/context/resolveAttachments.js';
import { readWorkspaceMcpServers } from '../../../src/core/mcp/workspaceMcpFiles.js';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { readOrNull } from '../../../src/core/util/paths.js';
import {
	NotRegularFileError,
	readRegularFile,
	readRegularTextOrNull,
} from '../../../src/core/util/regularFile.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

const servers: Server[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
	await removeTrees();
});

const signal = new AbortController().signal;
const fifo = (path: string) => execFileSync('mkfifo', [path]);

async function socketAt(path: string): Promise<void> {
	const server = createServer();
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(path, resolve));
}

describe.runIf(process.platform !== 'win32')('special files are never read', () => {
	it('readRegularFile refuses a FIFO, a socket and a device by kind; reads a regular file up to the cap', async () => {
		const root = await makeTree({ 'a.txt': 'hello world' });
		fifo(join(root, 'pipe'));
		await socketAt(join(root, 'sock'));
		const kinds: string[] = [];
		for (const path of [join(root, 'pipe'), join(root, 'sock'), '/dev/zero']) {
			const error = await readRegularFile(path, 10).catch((caught: unknown) => caught);
			expect(NotRegularFileError.is(error)).toBe(true);
			kinds.push((error as NotRegularFileError).kind);
		}
		expect(kinds).toEqual(['a FIFO (named pipe)', 'a socket', 'a character device']);
		// Control: a regular file is read, at most `maxBytes` of it, with its real size.
		const read = await readRegularFile(join(root, 'a.txt'), 5);
		expect(read.bytes.toString()).toBe('hello');
		expect(read.size).toBe(11);
		expect(await readRegularTextOrNull(join(root, 'a.txt'), 5)).toBeNull();
		expect(await readRegularTextOrNull(join(root, 'a.txt'), 11)).toBe('hello world');
		expect(await readOrNull(join(root, 'pipe'))).toBeNull();
		expect(await readOrNull(join(root, 'a.txt'))).toBe('hello world');
	});

	it('read_file and search_files refuse FIFOs with the reason; five at once leave the engine responsive', async () => {
		const root = await makeTree({ 'a.txt': 'needle\n', 'src/b.txt': 'needle too\n' });
		const pipes = ['notes.txt', 'f1', 'f2', 'f3', 'src/f4'];
		for (const pipe of pipes) fifo(join(root, pipe));
		const workspace = await createWorkspace(root);
		const toolbox = createToolbox({ overlay: workspace.createOverlay(), writable: false });
		const call = (name: string, args: Record<string, unknown>) => toolbox.execute(name, args, signal);

		// More FIFOs than libuv has pool threads, all at once: a blocking open would take all four.
		const reads = await Promise.all(pipes.map((path) => call('read_file', { path })));
		expect(reads.map((r) => r.text)).toEqual(
			pipes.map(
				(path) =>
					`read_file: '${path}' is a FIFO (named pipe), not a regular file: only regular files are read`,
			),
		);
		expect(reads.every((r) => r.isError)).toBe(true);
		// The pool is free: plain fs work still completes.
		expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('needle\n');

		const named = await call('search_files', { pattern: 'needle', path: 'notes.txt' });
		expect(named).toEqual({
			isError: true,
			text: "search_files: 'notes.txt' is a FIFO (named pipe), not a regular file: only regular files are read",
		});
		// The whole workspace: rg (or the walker) skips the FIFOs and finds the regular files.
		const all = await call('search_files', { pattern: 'needle' });
		expect(all).toEqual({ isError: false, text: 'a.txt:1: needle\nsrc/b.txt:1: needle too' });
		// Control: a regular file reads as before.
		expect(await call('read_file', { path: 'a.txt' })).toEqual({ isError: false, text: 'needle\n' });
	});

	it('an attachment, the config, .env and the workspace MCP files as FIFOs are refused or skipped, never waited on', async () => {
		const root = await makeTree({ 'ok.txt': 'fine\n' });
		mkdirSync(join(root, '.massgen'));
		mkdirSync(join(root, '.vscode'));
		for (const path of ['notes.txt', '.massgen/config.yaml', '.env', '.vscode/mcp.json', '.mcp.json']) {
			fifo(join(root, path));
		}
		const workspace = await createWorkspace(root);
		const attach = await resolveAttachments([{ kind: 'path', path: 'notes.txt' }], workspace).catch(
			(error: unknown) => error,
		);
		expect(attach).toBeInstanceOf(AttachmentError);
		expect((attach as Error).message).toBe(
			"cannot attach 'notes.txt': it is a FIFO (named pipe), not a regular file",
		);

		const config = await loadConfigFile(join(root, '.massgen', 'config.yaml'));
		expect(config.config).toBeUndefined();
		expect(config.issues[0]?.message).toBe(
			'cannot read the config: it is a FIFO (named pipe), not a regular file',
		);
		expect(await readDotenv(root)).toEqual({});
		expect((await readWorkspaceMcpServers(root)).notices).toEqual([
			'.vscode/mcp.json: a FIFO (named pipe), not a regular file; its MCP servers are ignored',
			'.mcp.json: a FIFO (named pipe), not a regular file; its MCP servers are ignored',
		]);

		// Controls: the same files as regular files are read.
		const plain = await makeTree({
			'.env': 'OPENAI_API_KEY=k\n',
			'.mcp.json': JSON.stringify({ mcpServers: { x: { command: 'true' } } }),
		});
		writeFileSync(join(plain, 'team.yaml'), 'agent:\n  id: a\n  backend: {type: openai, model: gpt-5}\n');
		expect(await readDotenv(plain)).toEqual({ OPENAI_API_KEY: 'k' });
		expect((await readWorkspaceMcpServers(plain)).servers.map((s) => s.name)).toEqual(['x']);
		expect((await loadConfigFile(join(plain, 'team.yaml'))).config).toBeDefined();
		const [file] = await resolveAttachments([{ kind: 'path', path: 'ok.txt' }], workspace);
		expect(file).toMatchObject({ kind: 'file', text: 'fine\n' });
	});
});
