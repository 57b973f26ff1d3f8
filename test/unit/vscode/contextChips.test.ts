import { describe, expect, it } from 'vitest';
import { secretPaths } from '../../../src/core/workspace/secretPaths.js';
import {
	diagnosticChips,
	diffChip,
	diffChoice,
	fileDiagnosticCaps,
	offeredPath,
	openEditorPaths,
	pathChip,
	terminalChip,
	workspaceDiagnosticCaps,
} from '../../../src/vscode/context/contextChips.js';
import type { EditorDiagnostic } from '../../../src/vscode/context/fixRequest.js';
import { chipToRequest } from '../../../src/vscode/context/chipRequest.js';
import { webviewMessageSchema } from '../../../src/protocol/webviewMessageSchema.js';

const folder = '/ws';
const secrets = secretPaths(['config/prod.yaml']);

const problem = (line: number, severity: number, message = `problem on line ${line}`): EditorDiagnostic => ({
	startLine: line - 1,
	startCharacter: 4,
	endLine: line - 1,
	severity,
	message,
	source: 'ts',
	code: 2322,
});

describe('the context pickers’ chips', () => {
	it('offer open editors of the folder once each, never a secret, unsaved or outside one', () => {
		const { paths, notes } = openEditorPaths(
			folder,
			[
				{ scheme: 'file', fsPath: '/ws/src/b.ts', isDirty: false },
				{ scheme: 'file', fsPath: '/ws/src/a.ts', isDirty: false },
				{ scheme: 'file', fsPath: '/ws/src/a.ts', isDirty: false },
				{ scheme: 'file', fsPath: '/ws/.env.local', isDirty: false },
				{ scheme: 'file', fsPath: '/ws/config/prod.yaml', isDirty: false },
				{ scheme: 'file', fsPath: '/ws/dirty.ts', isDirty: true },
				{ scheme: 'file', fsPath: '/elsewhere/x.ts', isDirty: false },
				{ scheme: 'untitled', fsPath: 'Untitled-1', isDirty: true },
			],
			secrets,
		);
		expect(paths).toEqual(['src/a.ts', 'src/b.ts']);
		expect(notes).toEqual([
			"'.env.local' is a secret path (matches '.env*')",
			"'config/prod.yaml' is a secret path (matches 'config/prod.yaml')",
			'dirty.ts has unsaved changes: save it to attach it',
			'/elsewhere/x.ts is outside the workspace folder',
		]);
		expect(offeredPath(folder, '/ws/keys/id_rsa', secrets)).toEqual({
			refused: "'keys/id_rsa' is a secret path (matches 'id_rsa*')",
		});
	});

	it('describe a git diff with the files it holds, and what it leaves out', () => {
		const choice = diffChoice(
			folder,
			'working-tree',
			[
				{ fsPath: '/ws/src/a.ts', status: 5 },
				{ fsPath: '/ws/.env', status: 5 },
				{ fsPath: '/ws/new.md', status: 7 },
				{ fsPath: '/other/z.ts', status: 5 },
			],
			secrets,
		);
		expect(choice).toEqual({ source: 'working-tree', files: ['src/a.ts'], secret: 1, untracked: 1 });
		const chip = diffChip(choice);
		expect(chip).toMatchObject({
			label: 'working tree changes',
			detail: '1 file: src/a.ts; 1 secret file(s) left out; 1 untracked file(s) not in a diff',
			request: { kind: 'diff', source: 'working-tree' },
		});
		expect(chipToRequest(chip)).toEqual({ kind: 'diff', source: 'working-tree' });
	});

	it('make one diagnostics request per file with positions, severity, message and source(code); errors first; no secret files', () => {
		const chips = diagnosticChips(
			folder,
			[
				{ fsPath: '/ws/src/warn.ts', items: [problem(3, 1)] },
				{ fsPath: '/ws/src/err.ts', items: [problem(7, 0, 'Type string is not number'), problem(9, 3)] },
				{ fsPath: '/ws/.env', items: [problem(1, 0)] },
			],
			secrets,
			workspaceDiagnosticCaps,
		);
		expect(chips.map((chip) => [chip.label, chip.detail])).toEqual([
			['problems in src/err.ts', '1 error'],
			['problems in src/warn.ts', '1 warning'],
		]);
		expect(chips[0]!.request).toEqual({
			kind: 'diagnostics',
			path: 'src/err.ts',
			items: [
				{
					range: { start: 7, end: 7, column: 5 },
					severity: 'error',
					message: 'Type string is not number',
					source: 'ts(2322)',
				},
			],
		});
		// The active file's picker keeps every severity.
		const own = diagnosticChips(
			folder,
			[{ fsPath: '/ws/src/err.ts', items: [problem(7, 0), problem(9, 3)] }],
			secrets,
			fileDiagnosticCaps,
		);
		expect(own.map((chip) => chip.detail)).toEqual(['1 error, 1 other']);
	});

	it('cap diagnostics with a note the team reads', () => {
		const many = Array.from({ length: 30 }, (_, i) => ({
			fsPath: `/ws/f${String(i).padStart(2, '0')}.ts`,
			items: Array.from({ length: 10 }, (_, j) => problem(j + 1, 0)),
		}));
		const chips = diagnosticChips(folder, many, secrets, workspaceDiagnosticCaps);
		const requests = chips.map(chipToRequest);
		const counted = requests.flatMap((request) => (request.kind === 'diagnostics' ? request.items : []));
		expect(counted).toHaveLength(200);
		expect(chips).toHaveLength(21);
		expect(requests.at(-1)).toEqual({
			kind: 'text',
			source: 'problems',
			text: '[100 more problem(s) (10 more files) are not attached: the cap is 200 problems in 20 file(s)]',
		});
		// What the ask box posts back passes its schema.
		expect(
			webviewMessageSchema.safeParse({ type: 'ask', question: 'why?', attachments: chips }).success,
		).toBe(true);
	});

	it('label a terminal command with its terminal and command line; the text holds the command, output and exit code', () => {
		const chip = terminalChip({
			terminal: 'bash',
			commandLine: 'npm test',
			output: 'FAIL src/a.test.ts\n  expected 2, got 3',
			exitCode: 1,
		});
		expect(chip.label).toBe('bash: npm test');
		expect(chipToRequest(chip)).toEqual({
			kind: 'terminal',
			source: 'bash: npm test',
			text: '$ npm test\nFAIL src/a.test.ts\n  expected 2, got 3\n[exit code 1]',
		});
	});

	it('give picked files, folders and images as path requests (the core tells them apart); ids are unique and schema-safe', () => {
		const chips = [pathChip('src', 'folder'), pathChip('shot.png', 'image', 'data:image/png;base64,AAAA')];
		expect(chips.map(chipToRequest)).toEqual([
			{ kind: 'path', path: 'src' },
			{ kind: 'path', path: 'shot.png' },
		]);
		expect(chips[0]!.id).not.toBe(pathChip('src', 'folder').id);
		expect(webviewMessageSchema.safeParse({ type: 'ask', question: 'q', attachments: chips }).success).toBe(
			true,
		);
	});
});
