import { describe, expect, it } from 'vitest';
import {
	levelValues,
	mostSpecific,
	type SettingLevels,
	tightest,
	union,
	userValue,
} from '../../../src/vscode/common/settingPolicies';

/** A repository's `.vscode/settings.json` and `.code-workspace` at their worst, over a careful user. */
const hostile = (user: unknown, workspace: unknown, folder: unknown): SettingLevels => ({
	defaultValue: 'default',
	globalValue: user,
	workspaceValue: workspace,
	workspaceFolderValue: folder,
});

describe('setting merge policies against hostile workspace values', () => {
	it('levelValues: the set levels, most general first, unset ones left out (null is set)', () => {
		expect(levelValues(hostile(1, undefined, null))).toEqual([
			{ level: 'user', value: 1 },
			{ level: 'folder', value: null },
		]);
		expect(levelValues(undefined)).toEqual([]);
	});

	it('plain: the most specific set level, so a workspace overrides the user (kept for restricted or harmless settings)', () => {
		expect(mostSpecific(hostile(60, 1, undefined))).toBe(1);
		expect(mostSpecific(hostile(60, 1, 86_400))).toBe(86_400);
		expect(mostSpecific(hostile(undefined, undefined, undefined))).toBeUndefined();
	});

	it('userOnly: a workspace or folder value never counts, even when the user set nothing', () => {
		expect(userValue(hostile(undefined, true, true))).toBeUndefined();
		expect(userValue(hostile(false, true, true))).toBe(false);
		expect(userValue(hostile('/usr/bin/claude', '/tmp/evil', '/tmp/evil'))).toBe('/usr/bin/claude');
	});

	describe('tightenOnly', () => {
		const positive = (value: unknown): value is number =>
			typeof value === 'number' && Number.isFinite(value) && value > 0;
		const lowest = (levels: SettingLevels) => tightest(levels, positive, (value) => -value);
		const order = ['allow', 'ask', 'deny'];
		const mode = (value: unknown): value is string => typeof value === 'string' && order.includes(value);
		const strictest = (levels: SettingLevels) => tightest(levels, mode, (value) => order.indexOf(value));

		it('a workspace can lower a cap, never raise it', () => {
			expect(lowest(hostile(5, 1_000_000, undefined))).toBe(5);
			expect(lowest(hostile(5, 1_000_000, 2))).toBe(2);
		});

		it('invalid workspace values (0, negative, Infinity, NaN, strings, objects) are skipped, not taken as "no cap"', () => {
			expect(lowest(hostile(5, 0, -1))).toBe(5);
			expect(lowest(hostile(5, Number.POSITIVE_INFINITY, Number.NaN))).toBe(5);
			expect(lowest(hostile(5, '1', { limit: 1 }))).toBe(5);
			expect(lowest(hostile(undefined, 'lots', null))).toBeUndefined();
		});

		it('allow < ask < deny: a workspace can say deny, never allow over the user’s ask', () => {
			expect(strictest(hostile('ask', 'allow', 'allow'))).toBe('ask');
			expect(strictest(hostile('allow', 'deny', undefined))).toBe('deny');
			expect(strictest(hostile(undefined, 'allow', 'ALLOW'))).toBe('allow');
			expect(strictest(hostile('deny', 'allow', 'yes'))).toBe('deny');
		});

		it('the user who set nothing has the default: a workspace cannot loosen that either', () => {
			const levels = (defaultValue: unknown, user: unknown, workspace: unknown): SettingLevels => ({
				defaultValue,
				globalValue: user,
				workspaceValue: workspace,
			});
			// massgen.providerTools (default ask) and massgen.confirmCostAboveUsd (default 0.5).
			expect(strictest(levels('ask', undefined, 'allow'))).toBe('ask');
			expect(strictest(levels('ask', undefined, 'deny'))).toBe('deny');
			expect(lowest(levels(0.5, undefined, 1_000_000))).toBe(0.5);
			expect(lowest(levels(0.5, undefined, 0.1))).toBe(0.1);
			// The user's own value replaces the default, looser or not.
			expect(strictest(levels('ask', 'allow', undefined))).toBe('allow');
			expect(lowest(levels(0.5, 20, 30))).toBe(20);
		});
	});

	describe('union', () => {
		const strings = (levels: SettingLevels, counts?: (level: string) => boolean) => {
			const notLists: string[] = [];
			const merged = union(levelValues(levels), {
				notAList: (level) => notLists.push(level),
				...(counts ? { counts } : {}),
				accept: (item) => (typeof item === 'string' ? item : undefined),
			});
			return { merged, notLists };
		};

		it('a workspace’s empty list does not drop the user’s items; every level adds', () => {
			expect(strings(hostile(['a'], [], ['b'])).merged).toEqual([
				{ level: 'user', item: 'a' },
				{ level: 'folder', item: 'b' },
			]);
		});

		it('a workspace value that is not a list is reported and the user’s list still counts', () => {
			expect(strings(hostile(['a'], 'not a list', { a: 1 }))).toEqual({
				merged: [{ level: 'user', item: 'a' }],
				notLists: ['workspace', 'folder'],
			});
		});

		it('rejected items and lists a caller does not count are left out', () => {
			const { merged } = strings(hostile(['a', 7, null], ['w'], ['f']), (level) => level !== 'workspace');
			expect(merged).toEqual([
				{ level: 'user', item: 'a' },
				{ level: 'folder', item: 'f' },
			]);
		});
	});
});
