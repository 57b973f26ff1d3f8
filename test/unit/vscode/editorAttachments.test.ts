import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	editorAttachments,
	selectionLines,
	workspacePath,
} from '../../../src/vscode/context/editorAttachments';

const folder = join('/', 'work', 'repo');
const file = (rel: string) => join(folder, ...rel.split('/'));
const caret = { startLine: 4, startCharacter: 2, endLine: 4, endCharacter: 2 };

describe('editorAttachments', () => {
	it('attaches the active file by its workspace path when nothing is selected', () => {
		const attached = editorAttachments(folder, {
			scheme: 'file',
			fsPath: file('src/a.ts'),
			isDirty: false,
			selection: caret,
		});
		expect(attached).toEqual({ requests: [{ kind: 'file', path: 'src/a.ts' }], label: 'src/a.ts' });
	});

	it('attaches a selection as a 1-based inclusive line range and says so', () => {
		const attached = editorAttachments(folder, {
			scheme: 'file',
			fsPath: file('src/a.ts'),
			isDirty: false,
			selection: { startLine: 2, startCharacter: 4, endLine: 8, endCharacter: 1 },
		});
		expect(attached.requests).toEqual([{ kind: 'file', path: 'src/a.ts', range: { start: 3, end: 9 } }]);
		expect(attached.label).toBe('src/a.ts lines 3–9');
	});

	it('does not count the line a whole-line selection ends at', () => {
		expect(selectionLines({ startLine: 2, startCharacter: 0, endLine: 5, endCharacter: 0 })).toEqual({
			start: 3,
			end: 5,
		});
		expect(selectionLines({ startLine: 6, startCharacter: 1, endLine: 6, endCharacter: 9 })).toEqual({
			start: 7,
			end: 7,
		});
		expect(selectionLines(caret)).toBeUndefined();
	});

	it('leaves out untitled, unsaved and outside-the-folder editors with a note', () => {
		const untitled = editorAttachments(folder, { scheme: 'untitled', fsPath: 'Untitled-1', isDirty: true });
		const dirty = editorAttachments(folder, { scheme: 'file', fsPath: file('b.ts'), isDirty: true });
		const outside = editorAttachments(folder, {
			scheme: 'file',
			fsPath: join('/', 'work', 'other', 'c.ts'),
			isDirty: false,
		});
		const sibling = editorAttachments(folder, { scheme: 'file', fsPath: `${folder}-2/d.ts`, isDirty: false });
		const diffView = editorAttachments(folder, { scheme: 'git', fsPath: file('e.ts'), isDirty: false });
		for (const attached of [untitled, dirty, outside, sibling, diffView]) {
			expect(attached.requests).toEqual([]);
			expect(attached.label).toBeUndefined();
			expect(attached.note).toBeTruthy();
		}
		expect(dirty.note).toContain('unsaved');
		expect(editorAttachments(folder, undefined)).toEqual({ requests: [] });
	});

	it('names workspace paths with / separators and nothing outside', () => {
		expect(workspacePath(folder, file('a/b/c.ts'))).toBe('a/b/c.ts');
		expect(workspacePath(folder, folder)).toBeUndefined();
		expect(workspacePath(folder, join(folder, '..', 'x.ts'))).toBeUndefined();
	});
});
