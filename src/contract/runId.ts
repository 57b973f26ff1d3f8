/**
 * Run ids name run directories: `YYYYMMDD-HHMMSS-xxxx` (UTC time, four base-36 characters).
 */

/** The format `newRunId` produces. */
export const runIdPattern = /^\d{8}-\d{6}-[0-9a-z]{4}$/;

/** Any name that is safe as one directory component under `.massgen/runs/`. */
export const safeRunDirPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A new run id. `random` returns values in [0, 1) (default Math.random); inject both for tests.
 * Sorting ids as strings sorts runs by start time (to the second).
 */
export function newRunId(date: Date = new Date(), random: () => number = Math.random): string {
	const pad = (n: number, width = 2) => String(n).padStart(width, '0');
	const day = `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
	const time = `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;
	let suffix = '';
	for (let i = 0; i < 4; i++) {
		suffix += alphabet[Math.min(alphabet.length - 1, Math.floor(random() * alphabet.length))];
	}
	return `${day}-${time}-${suffix}`;
}

/** Whether `runId` can be used as a run directory name (no separators, no `..`, bounded). */
export function isSafeRunId(runId: string): boolean {
	return safeRunDirPattern.test(runId) && !runId.includes('..');
}

/** The start time encoded in a `newRunId` id, or null for another format. */
export function runIdDate(runId: string): Date | null {
	const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-/.exec(runId);
	if (!m || !runIdPattern.test(runId)) return null;
	const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
	const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
	return Number.isNaN(date.getTime()) ? null : date;
}

/** A result's recorded `startedAt` (ISO 8601) as a date, or null when absent or not a time. */
export function recordedStart(value: unknown): Date | null {
	if (typeof value !== 'string') return null;
	const time = Date.parse(value);
	return Number.isNaN(time) ? null : new Date(time);
}
