import { LineCounter, parseDocument } from 'yaml';
import type { Document, YAMLError } from 'yaml';
import { isRateLimitTable, mapAg2Agents } from './ag2Agents.js';
import { hasErrors, sortIssues } from './configIssue.js';
import { mapDockerNetwork } from './dockerNetwork.js';
import type { ConfigIssue } from './configIssue.js';
import { isRecord } from './isRecord.js';
import { auditKeys } from './keyAudit.js';
import { massGenConfigSchema } from './schema.js';
import type { MassGenConfig } from './schema.js';
import { aliasPastCap } from './yamlExpansion.js';
import { flowNestingPastCap } from './yamlNesting.js';
import { locate } from './yamlPositions.js';
import type { Position } from './yamlPositions.js';
import { fromZodIssues } from './zodIssues.js';
import { errorMessage } from '../util/errorMessage.js';
import { NotRegularFileError, readRegularFile } from '../util/regularFile.js';

type Path = readonly (string | number)[];

/** A team config is a few KB; a larger file is a mistake or an attack on the parser's memory. */
export const maxConfigBytes = 1024 * 1024;
/** What the YAML may grow to once aliases are expanded (a 1 MB anchor used 300 times is 300 MB). */
export const maxExpandedChars = 2 * 1024 * 1024;
/** Flow collections (`[…]`, `{…}`) nested deeper are refused before parsing. */
export const maxFlowNesting = 100;

/** Where the loaded config's nodes are, for checks made after loading (e.g. API keys). */
export interface ConfigSource {
	readonly file: string;
	/** Position of a path of the normalised config; `['agents', 0, …]` also finds a single `agent:`. */
	locate(path: Path, target?: 'key' | 'value'): Position;
}

/** `config` is undefined exactly when `issues` holds an error. Issues are sorted by position. */
export interface ConfigLoadResult {
	readonly config: MassGenConfig | undefined;
	readonly issues: ConfigIssue[];
	/** Absent when the file cannot be read or is not valid YAML. */
	readonly source?: ConfigSource;
}

/** Parses and validates config text. Never throws: every problem, even a bug of ours, is an issue. */
export function loadConfigText(text: string, file: string): ConfigLoadResult {
	try {
		return load(text, file);
	} catch (error) {
		const why = errorMessage(error);
		const issue = fileIssue(file, 'internal-error', `internal error reading the config: ${why}`);
		return { config: undefined, issues: [issue] };
	}
}

function load(text: string, file: string): ConfigLoadResult {
	const bytes = Buffer.byteLength(text, 'utf8');
	if (bytes > maxConfigBytes) return { config: undefined, issues: [tooLargeIssue(file, bytes)] };
	const tooDeep = flowNestingPastCap(text, maxFlowNesting);
	if (tooDeep !== undefined) {
		const line = text.slice(0, tooDeep).split('\n').length;
		const col = tooDeep - text.lastIndexOf('\n', tooDeep - 1);
		const message = `'[' and '{' nest more than ${maxFlowNesting} levels deep here: a team config needs a few`;
		return {
			config: undefined,
			issues: [{ severity: 'error', code: 'yaml-too-deep', message, file, line, col, path: [] }],
		};
	}
	const lineCounter = new LineCounter();
	const doc = parseDocument(text, {
		lineCounter,
		prettyErrors: false,
		// MassGen reads YAML with PyYAML (1.1: yes/no booleans, merge keys), but dates stay strings
		// so that e.g. `api_version: 2024-10-21` is not turned into a timestamp.
		version: '1.1',
		customTags: (tags) =>
			tags.filter((tag) => typeof tag === 'string' || tag.tag !== 'tag:yaml.org,2002:timestamp'),
	});
	const at = (offset: number): Position => lineCounter.linePos(offset);
	const issue = (
		severity: ConfigIssue['severity'],
		code: string,
		message: string,
		pos: Position,
		path: Path = [],
	): ConfigIssue => ({ severity, code, message, file, line: pos.line, col: pos.col, path: [...path] });

	// One syntax error per line: the first is the cause, the rest on that line are its echoes.
	const errorLines = new Set<number>();
	const firstPerLine = doc.errors.filter((e) => {
		const line = at(e.pos[0]).line;
		return errorLines.has(line) ? false : (errorLines.add(line), true);
	});
	const syntax = [
		...firstPerLine.map((e) => issue('error', yamlCode(e), yamlMessage(e, text), at(e.pos[0]))),
		...doc.warnings.map((e) => issue('warning', yamlCode(e), yamlMessage(e, text), at(e.pos[0]))),
	];
	if (hasErrors(syntax)) return { config: undefined, issues: sortIssues(syntax) };

	const bomb = aliasPastCap(doc, maxExpandedChars);
	if (bomb !== undefined) {
		const message =
			`YAML aliases expand the config past ${maxExpandedChars / 1024 / 1024} MiB at '*${bomb.source}': ` +
			'a team config is a few KB; use the alias less or anchor something smaller';
		return {
			config: undefined,
			issues: [issue('error', 'yaml-alias-expansion', message, at(bomb.range?.[0] ?? 0))],
		};
	}

	let raw: unknown;
	let unreadable: string | undefined;
	try {
		raw = doc.toJS({ maxAliasCount: 1000 });
	} catch (error) {
		unreadable = errorMessage(error);
	}
	const singleAgent = isRecord(raw) && 'agent' in raw && !('agents' in raw);
	const source = positionsOf(doc, lineCounter, file, singleAgent);
	const done = (issues: ConfigIssue[], config?: MassGenConfig): ConfigLoadResult => ({
		config: hasErrors(issues) ? undefined : config,
		issues: sortIssues(issues),
		source,
	});
	const rootError = (code: string, message: string, pos: Position): ConfigLoadResult =>
		done([...syntax, issue('error', code, message, pos)]);

	if (unreadable !== undefined) {
		return rootError('yaml-unreadable', `the YAML cannot be read: ${unreadable}`, source.locate([], 'value'));
	}
	if (doc.contents === null) {
		const message = "the config is empty: it needs 'agents:' (a list) or 'agent:'";
		return rootError('empty-file', message, { line: 1, col: 1 });
	}
	if (!isRecord(raw)) {
		const found = Array.isArray(raw) ? 'a list' : `a single value (${JSON.stringify(raw)})`;
		const message = `the top level must be a mapping (key: value) with 'agents:' or 'agent:', not ${found}`;
		return rootError('root-not-mapping', message, source.locate([], 'value'));
	}

	if (isRateLimitTable(raw)) {
		const message =
			"this is MassGen's rate-limit table (provider → model → rpm/tpm/rpd), which its Python " +
			"backends read, not a team config: it has no 'agents:'";
		return rootError('python-only', message, { line: 1, col: 1 });
	}

	const issues = [...syntax];
	const ag2 = mapAg2Agents(raw);
	for (const found of ag2.issues) {
		const pos = locate(doc, lineCounter, found.path, 'key');
		issues.push(issue(found.severity, found.code, found.message, pos, found.path));
	}
	if (hasErrors(issues)) return done(issues);
	for (const warning of auditKeys(ag2.raw)) {
		const pos = locate(doc, lineCounter, warning.path, warning.target);
		issues.push(issue('warning', warning.code, warning.message, pos, warning.path));
	}
	const parsed = massGenConfigSchema.safeParse(mapDockerNetwork(ag2.raw), { reportInput: true });
	if (!parsed.success) {
		for (const error of fromZodIssues(parsed.error.issues)) {
			const pos = locate(doc, lineCounter, error.path, error.target);
			issues.push(issue('error', error.code, error.message, pos, error.path));
		}
	}
	return done(issues, parsed.data);
}

/** Reads and loads a config file; an unreadable file is one issue at 1:1. */
export async function loadConfigFile(path: string): Promise<ConfigLoadResult> {
	let text: string;
	try {
		const read = await readAtMost(path, maxConfigBytes);
		if (read.size > maxConfigBytes) return { config: undefined, issues: [tooLargeIssue(path, read.size)] };
		text = read.text;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const why = NotRegularFileError.is(error)
			? `it is ${error.kind}, not a regular file`
			: code === 'ENOENT'
				? 'no such file'
				: code === 'EISDIR'
					? 'it is a directory'
					: String(code ?? error);
		const kind = code === 'ENOENT' ? 'file-not-found' : 'file-unreadable';
		return { config: undefined, issues: [fileIssue(path, kind, `cannot read the config: ${why}`)] };
	}
	return loadConfigText(text, path);
}

/** The file's text if it has at most `max` bytes; otherwise only its size. */
async function readAtMost(path: string, max: number): Promise<{ text: string; size: number }> {
	// A regular file only: a FIFO as `.massgen/config.yaml` would block the open forever.
	const { bytes, size } = await readRegularFile(path, max);
	return size > max ? { text: '', size } : { text: bytes.toString('utf8'), size };
}

function tooLargeIssue(file: string, size: number): ConfigIssue {
	const message = `the config is ${size} bytes, over the ${maxConfigBytes / 1024 / 1024} MiB limit for a team config`;
	return fileIssue(file, 'file-too-large', message);
}

function fileIssue(file: string, code: string, message: string): ConfigIssue {
	return { severity: 'error', code, message, file, line: 1, col: 1, path: [] };
}

function positionsOf(
	doc: Document,
	lineCounter: LineCounter,
	file: string,
	singleAgent: boolean,
): ConfigSource {
	return {
		file,
		locate(path, target = 'value') {
			// The normalised config always has `agents`; map back to what the file says.
			const written =
				singleAgent && path[0] === 'agents' && path[1] === 0 ? ['agent', ...path.slice(2)] : path;
			return locate(doc, lineCounter, written, target);
		},
	};
}

function yamlCode(error: YAMLError): string {
	return `yaml-${error.code.toLowerCase().replace(/_/g, '-')}`;
}

function yamlMessage(error: YAMLError, text: string): string {
	if (error.code === 'DUPLICATE_KEY') {
		const key = /^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0].trim();
		return `duplicate key${key ? ` '${key}'` : ''}: keys must be unique within a mapping`;
	}
	if (error.code === 'TAB_AS_INDENT') return 'tab used for indentation: YAML indentation must use spaces';
	if (error.code === 'MULTIPLE_DOCS') {
		return "a config is a single YAML document: remove this '---' and what follows";
	}
	return `YAML syntax: ${error.message}`;
}
