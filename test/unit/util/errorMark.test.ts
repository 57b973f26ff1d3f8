import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/usageError.js';
import { HunkApplyError } from '../../../src/core/changes/hunks.js';
import { AttachmentError } from '../../../src/core/context/attachment.js';
import { RunsDirError } from '../../../src/core/runStore/runsDirGuard.js';
import { ProviderError } from '../../../src/core/providers/spec/providerError.js';
import { EstimateDeclinedError } from '../../../src/core/run/estimateDeclinedError.js';
import { SessionError } from '../../../src/core/sessions/historyOf.js';
import { WorkspaceLockedError } from '../../../src/core/workspace/workspaceLock.js';

const classes = [
	['AttachmentError', AttachmentError, () => new AttachmentError('x')],
	['EstimateDeclinedError', EstimateDeclinedError, () => new EstimateDeclinedError('x')],
	['SessionError', SessionError, () => new SessionError('x')],
	['WorkspaceLockedError', WorkspaceLockedError, () => new WorkspaceLockedError('/w/.lock', null)],
	['HunkApplyError', HunkApplyError, () => new HunkApplyError('x')],
	['RunsDirError', RunsDirError, () => new RunsDirError('x')],
	['UsageError', UsageError, () => new UsageError('x')],
	['ProviderError', ProviderError, () => new ProviderError({ provider: 'p', kind: 'server', message: 'x' })],
] as const;

describe('every error class a shell tells apart has a mark and a guard', () => {
	it.each(classes)(
		'%s: its own instances, and a copy from another bundle (same mark, other class)',
		(name, Class, make) => {
			expect(Class.is(make())).toBe(true);
			// What the engine bundle's copy of the class makes: not `instanceof` this one, but marked alike.
			const fromOtherBundle = Object.assign(new Error('x'), { [Symbol.for(`massgen.${name}`)]: true });
			expect(fromOtherBundle instanceof Class).toBe(false);
			expect(Class.is(fromOtherBundle)).toBe(true);
		},
	);

	it.each(classes)(
		'%s: not a plain error of the same name, another class, or a non-object',
		(name, Class) => {
			expect(Class.is(Object.assign(new Error('x'), { name }))).toBe(false);
			const other = classes.find(([otherName]) => otherName !== name)![2]();
			expect(Class.is(other)).toBe(false);
			expect(Class.is(name)).toBe(false);
			expect(Class.is(null)).toBe(false);
		},
	);
});
