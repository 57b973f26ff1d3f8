/**
 * Plans on disk: `<workspace>/.massgen/plans/<id>.md`, beside the run directories. The folder comes
 * with the repository, so it is treated as the run store treats `.massgen/runs`: `.massgen` and
 * `.massgen/plans` must be real folders, a plan must be a regular file (no link, FIFO or device)
 * of at most 1 MiB, and `latest` is the newest plan whose planning run this machine made (a plan
 * a repository ships is run only when the user names it).
 */
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isSafeRunId } from '../../contract/runId.js';
import { readOwnRuns } from '../runStore/ownRuns.js';
import { readResultSummary } from '../runStore/readResult.js';
import { assertRealFolder, checkedRunDir, RunsDirError } from '../runStore/runsDirGuard.js';
import { atomicWrite } from '../util/atomicWrite.js';
import { errorMessage } from '../util/errorMessage.js';
import { readRegularFile } from '../util/regularFile.js';
import { parsePlanDocument, planDocumentLimits, type PlanDocument } from './planDocument.js';
import { PlanError } from './planError.js';

export function plansDir(workspaceRoot: string): string {
	return join(workspaceRoot, '.massgen', 'plans');
}

/** The plan's path as the team and the user see it: workspace-relative with `/`, else absolute. */
export function planRelPath(workspaceRoot: string, path: string): string {
	const rel = relative(workspaceRoot, path);
	return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
}

/** Writes a new plan; never over an existing file. Returns its path. */
export async function savePlan(workspaceRoot: string, id: string, text: string): Promise<string> {
	if (!isSafeRunId(id)) throw new PlanError(`'${id}' is not a plan id`);
	const dir = await checkedPlansDir(workspaceRoot);
	await mkdir(dir, { recursive: true });
	await checkedPlansDir(workspaceRoot);
	const path = join(dir, `${id}.md`);
	await atomicWrite(path, text, { flag: 'create' });
	return path;
}

/** Rewrites a plan (a step's marks): atomically, and never through a link. */
export async function writePlanText(path: string, text: string): Promise<void> {
	await atomicWrite(path, text);
}

export interface ResolvedPlan {
	readonly path: string;
	readonly text: string;
	readonly doc: PlanDocument;
	/** Its planning run is one this machine made. */
	readonly madeHere: boolean;
}

/** `latest`, a plan id, or a path (relative to the workspace, or absolute). */
export async function resolvePlan(
	workspaceRoot: string,
	ref: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedPlan> {
	const own = await readOwnRuns(workspaceRoot, env);
	if (ref === 'latest') {
		const made = (await listPlans(workspaceRoot, env)).filter((plan) => plan.doc && plan.madeHere);
		const newest = made[0];
		if (!newest) {
			throw new PlanError(
				`no plan made on this machine in ${planRelPath(workspaceRoot, plansDir(workspaceRoot))} (name a plan by its id or path)`,
			);
		}
		return readPlan(workspaceRoot, newest.path, own);
	}
	// `<id>.md` and any other name with a slash or an extension is a path.
	const path =
		isSafeRunId(ref) && !/\.md$/i.test(ref)
			? join(await checkedPlansDir(workspaceRoot), `${ref}.md`)
			: resolve(workspaceRoot, ref);
	await assertRealFoldersTo(workspaceRoot, path);
	return readPlan(workspaceRoot, path, own);
}

/**
 * A path inside the workspace is read only through real folders: a repository can make `.massgen`,
 * `.massgen/plans` or any folder a link, and the marks of an execution would be written where it
 * leads. (A path outside the workspace is the user's to name.)
 */
async function assertRealFoldersTo(workspaceRoot: string, path: string): Promise<void> {
	const rel = relative(workspaceRoot, dirname(path));
	if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return;
	let at = workspaceRoot;
	for (const part of rel.split(sep)) {
		at = join(at, part);
		const info = await lstat(at).catch(() => null);
		if (info?.isSymbolicLink()) {
			throw new PlanError(
				`${planRelPath(workspaceRoot, at)} is a link: a plan in the workspace is read only through real folders`,
			);
		}
	}
}

export interface ListedPlan {
	readonly path: string;
	readonly doc: PlanDocument | null;
	readonly madeHere: boolean;
	/** Why it cannot be read (then `doc` is null). */
	readonly error?: string;
}

/** The plans in `.massgen/plans/`: those made here, then the others, each newest first; unreadable ones with why. */
export async function listPlans(
	workspaceRoot: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<ListedPlan[]> {
	const dir = await checkedPlansDir(workspaceRoot);
	const own = await readOwnRuns(workspaceRoot, env);
	let names: string[];
	try {
		names = (await readdir(dir, { withFileTypes: true }))
			.filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
			.map((entry) => entry.name)
			.slice(0, 1_000);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
	const listed: ListedPlan[] = [];
	for (const name of names) {
		const path = join(dir, name);
		try {
			const { doc, madeHere } = await readPlan(workspaceRoot, path, own);
			listed.push({ path, doc, madeHere });
		} catch (error) {
			listed.push({ path, doc: null, madeHere: false, error: errorMessage(error) });
		}
	}
	const key = (plan: ListedPlan) => plan.doc?.meta.created || plan.doc?.meta.id || '';
	// The user's own plans before any that came with the folder, whose `created` can say any date.
	return listed.sort(
		(a, b) =>
			Number(b.madeHere) - Number(a.madeHere) || key(b).localeCompare(key(a)) || b.path.localeCompare(a.path),
	);
}

async function readPlan(
	workspaceRoot: string,
	path: string,
	own: ReadonlySet<string>,
): Promise<ResolvedPlan> {
	const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
		throw new PlanError(
			error.code === 'ENOENT' ? `no plan at ${path}` : `cannot read ${path}: ${error.message}`,
		);
	});
	if (info.isSymbolicLink()) {
		throw new PlanError(`${path} is a link: a plan is read only from a regular file`);
	}
	let read;
	try {
		read = await readRegularFile(path, planDocumentLimits.bytes + 1);
	} catch (error) {
		throw new PlanError(`cannot read ${path}: ${errorMessage(error)}`);
	}
	if (read.size > planDocumentLimits.bytes) {
		throw new PlanError(
			`${path}: over ${planDocumentLimits.bytes / 1024 / 1024} MiB; a plan is at most that`,
		);
	}
	const text = read.bytes.toString('utf8');
	const doc = parsePlanDocument(text, path);
	return { path, text, doc, madeHere: await madeHere(workspaceRoot, path, doc, own) };
}

/**
 * The plan a planning run of this machine saved: the file `savePlan` wrote for that run
 * (`.massgen/plans/<run>.md`, its id the run's) and the run's own record says it planned it. A
 * front matter that only names one of the user's runs (any run: a chat, a review) is not enough:
 * a repository (or a collaborator's commit) can write any id there.
 */
async function madeHere(
	workspaceRoot: string,
	path: string,
	doc: PlanDocument,
	own: ReadonlySet<string>,
): Promise<boolean> {
	const { id, run } = doc.meta;
	if (!own.has(run) || id !== run) return false;
	if (resolve(path) !== join(resolve(plansDir(workspaceRoot)), `${id}.md`) || basename(path) !== `${id}.md`) {
		return false;
	}
	const runDir = await checkedRunDir(workspaceRoot, run).catch(() => null);
	const record = runDir === null ? undefined : (await readResultSummary(runDir).catch(() => null))?.plan;
	return record?.kind === 'planning' && record.planId === id;
}

/** `.massgen/plans`, once `.massgen` and it are known to be real folders (or absent). */
async function checkedPlansDir(workspaceRoot: string): Promise<string> {
	const dir = plansDir(workspaceRoot);
	try {
		await assertRealFolder(dirname(dir));
		await assertRealFolder(dir);
	} catch (error) {
		if (RunsDirError.is(error)) throw new PlanError(error.message.replace('run directories', 'plans'));
		throw error;
	}
	return dir;
}
