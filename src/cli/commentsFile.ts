/**
 * `--comments FILE`: the reviewer's comments for `massgen run --continue RUN_ID` as a JSON or YAML
 * list of `{path, line, endLine?, text}`. A problem is `FILE:line:col: message`, as `massgen
 * validate` reports a config.
 */
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import type { ReviewCommentInput } from '../contract/revision.js';
import { locate } from '../core/config/yamlPositions.js';
import { readRegularFile } from '../core/util/regularFile.js';

const maxBytes = 1024 * 1024;

const commentsSchema = z
	.array(
		z.strictObject({
			path: z.string().min(1),
			line: z.number().int().min(1),
			endLine: z.number().int().min(1).optional(),
			text: z.string().trim().min(1),
		}),
	)
	.min(1, 'the list has no comment')
	.max(100, 'at most 100 comments go to the team at once');

export class CommentsFileError extends Error {
	override readonly name = 'CommentsFileError';
}

export async function readCommentsFile(file: string): Promise<ReviewCommentInput[]> {
	let text: string;
	try {
		const { bytes, size } = await readRegularFile(file, maxBytes);
		if (size > maxBytes) {
			throw new CommentsFileError(`${file}: over ${maxBytes / 1024} KiB: a review is a list of comments`);
		}
		text = bytes.toString('utf8');
	} catch (error) {
		if (error instanceof CommentsFileError) throw error;
		throw new CommentsFileError(
			`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
		);
	}
	const lineCounter = new LineCounter();
	const doc = parseDocument(text, { lineCounter, prettyErrors: false });
	const syntax = doc.errors[0];
	if (syntax) {
		const at = lineCounter.linePos(syntax.pos[0]);
		throw new CommentsFileError(`${file}:${at.line}:${at.col}: ${syntax.message.split('\n')[0]}`);
	}
	let data: unknown;
	try {
		data = doc.toJS({ maxAliasCount: 100 });
	} catch (error) {
		// An alias bomb ('Excessive alias count'): a user's error, not the CLI's.
		throw new CommentsFileError(`${file}: ${(error as Error).message}`);
	}
	const parsed = commentsSchema.safeParse(data);
	if (parsed.success) return parsed.data.map((comment) => ({ ...comment }));
	const issue = parsed.error.issues[0]!;
	const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
	const at = locate(doc, lineCounter, path, issue.code === 'unrecognized_keys' ? 'key' : 'value');
	const where = path.length
		? ` (${path
				.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
				.join('')
				.replace(/^\./, '')})`
		: '';
	throw new CommentsFileError(`${file}:${at.line}:${at.col}: ${issue.message}${where}`);
}
