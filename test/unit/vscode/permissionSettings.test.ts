import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileRuleLists } from '../../../src/core/permissions/rules';
import {
	permissionSettingKeys,
	toEditorToolSettings,
} from '../../../src/vscode/approvals/permissionSettings';
import type { SettingLevels } from '../../../src/vscode/common/settingPolicies';
import {
	alwaysAllowKey,
	WorkspacePermissionStore,
} from '../../../src/vscode/approvals/workspacePermissionStore';

type Levels = Partial<Record<string, SettingLevels>>;
const from = (levels: Levels) => (key: string) => levels[key];
const { allow, ask, deny, approvalTimeoutSeconds, readWorkspaceServers } = permissionSettingKeys;

describe('massgen.permissions.* and massgen.mcp.* → createRunTools options', () => {
	it('nothing set: no rules, the config’s timeout, no workspace MCP files', () => {
		expect(toEditorToolSettings(from({ [readWorkspaceServers]: { defaultValue: false } }), true)).toEqual({
			rules: {},
			readWorkspaceServers: false,
			workspaceAllow: [],
			notes: [],
		});
		expect(toEditorToolSettings(() => undefined, false)).toEqual({
			rules: {},
			readWorkspaceServers: false,
			workspaceAllow: [],
			notes: [],
		});
	});

	it('merges the user, workspace and folder lists (a workspace cannot drop the user’s deny rules), trimmed and without duplicates', () => {
		const settings = toEditorToolSettings(
			from({
				[deny]: {
					defaultValue: [],
					globalValue: ['command(git push*)'],
					workspaceValue: [],
					workspaceFolderValue: [' command(npm publish*) ', 'command(git push*)'],
				},
				[ask]: { globalValue: ['mcp(github/*)'] },
				[allow]: { globalValue: ['command(npm test)'], workspaceValue: ['command(npm run lint)'] },
			}),
			true,
		);
		expect(settings.rules).toEqual({
			deny: ['command(git push*)', 'command(npm publish*)'],
			ask: ['mcp(github/*)'],
			allow: ['command(npm test)'],
		});
		// A trusted workspace's own allow rules wait for the user's consent (asked with the run's).
		expect(settings.workspaceAllow).toEqual(['command(npm run lint)']);
		expect(settings.notes).toEqual([]);
		// The lists are what the core compiles: every one of these parses.
		expect(compileRuleLists(settings.rules, 'settings').errors).toEqual([]);
	});

	it('an untrusted workspace cannot allow anything through its own settings (its deny and ask rules still count)', () => {
		const settings = toEditorToolSettings(
			from({
				[allow]: {
					globalValue: ['command(npm test)'],
					workspaceValue: ['command(*)'],
					workspaceFolderValue: ['mcp(*)'],
				},
				[deny]: { workspaceValue: ['command(rm *)'] },
				[ask]: { workspaceFolderValue: ['command(git *)'] },
			}),
			false,
		);
		expect(settings.rules).toEqual({
			allow: ['command(npm test)'],
			deny: ['command(rm *)'],
			ask: ['command(git *)'],
		});
		expect(settings.workspaceAllow).toEqual([]);
		expect(settings.notes).toEqual([
			`${allow} from the workspace settings is ignored: the workspace is not trusted`,
			`${allow} from the folder settings is ignored: the workspace is not trusted`,
		]);
	});

	it('ignores values that are not rules, saying so', () => {
		const settings = toEditorToolSettings(
			from({ [deny]: { globalValue: ['command(x)', 3, '', null] }, [ask]: { workspaceValue: 'command(y)' } }),
			true,
		);
		expect(settings.rules).toEqual({ deny: ['command(x)'] });
		expect(settings.notes).toEqual([
			`${ask} (workspace settings) is not a list of rules; ignored`,
			`${deny} (user settings): 3 is not a rule like command(npm test); ignored`,
			`${deny} (user settings): "" is not a rule like command(npm test); ignored`,
			`${deny} (user settings): null is not a rule like command(npm test); ignored`,
		]);
	});

	it('approvalTimeoutSeconds: the most specific value in ms; null or out of range leaves the config’s', () => {
		expect(
			toEditorToolSettings(from({ [approvalTimeoutSeconds]: { defaultValue: null, globalValue: 60 } }), true)
				.approvalTimeoutMs,
		).toBe(60_000);
		expect(
			toEditorToolSettings(from({ [approvalTimeoutSeconds]: { globalValue: 60, workspaceValue: 2.5 } }), true)
				.approvalTimeoutMs,
		).toBe(2_500);
		expect(
			toEditorToolSettings(from({ [approvalTimeoutSeconds]: { defaultValue: null } }), true),
		).not.toHaveProperty('approvalTimeoutMs');
		const bad = toEditorToolSettings(from({ [approvalTimeoutSeconds]: { globalValue: 0 } }), true);
		expect(bad).not.toHaveProperty('approvalTimeoutMs');
		expect(bad.notes).toEqual([
			`${approvalTimeoutSeconds}: 0 is not a number of seconds from 1 to 86400; the team config's timeout applies`,
		]);
		expect(
			toEditorToolSettings(from({ [approvalTimeoutSeconds]: { globalValue: '30' } }), true).notes,
		).toHaveLength(1);
	});

	it('readWorkspaceServers: on only when true at the most specific level that sets it', () => {
		expect(
			toEditorToolSettings(from({ [readWorkspaceServers]: { defaultValue: false, globalValue: true } }), true)
				.readWorkspaceServers,
		).toBe(true);
		expect(
			toEditorToolSettings(
				from({ [readWorkspaceServers]: { defaultValue: false, globalValue: true, workspaceValue: false } }),
				true,
			).readWorkspaceServers,
		).toBe(false);
		expect(
			toEditorToolSettings(
				from({ [readWorkspaceServers]: { defaultValue: false, globalValue: 'yes' } }),
				true,
			).readWorkspaceServers,
		).toBe(false);
	});

	it('readWorkspaceServers untrusted: off whoever set it, the workspace’s value and the user’s ignored with a note each', () => {
		const workspaceOn = toEditorToolSettings(
			from({ [readWorkspaceServers]: { defaultValue: false, workspaceValue: true } }),
			false,
		);
		expect(workspaceOn.readWorkspaceServers).toBe(false);
		expect(workspaceOn.notes).toEqual([
			`${readWorkspaceServers} from the workspace settings is ignored: the workspace is not trusted`,
		]);
		const folderOn = toEditorToolSettings(
			from({ [readWorkspaceServers]: { defaultValue: false, workspaceFolderValue: true } }),
			false,
		);
		expect(folderOn.readWorkspaceServers).toBe(false);
		expect(folderOn.notes).toHaveLength(1);
		const userOn = toEditorToolSettings(
			from({ [readWorkspaceServers]: { defaultValue: false, globalValue: true } }),
			false,
		);
		expect(userOn.readWorkspaceServers).toBe(false);
		expect(userOn.notes).toEqual([
			`${readWorkspaceServers} is on, but the workspace is not trusted: its .vscode/mcp.json and .mcp.json are not read`,
		]);
		// Control: the same workspace value in a trusted workspace turns it on.
		expect(
			toEditorToolSettings(
				from({ [readWorkspaceServers]: { defaultValue: false, workspaceValue: true } }),
				true,
			).readWorkspaceServers,
		).toBe(true);
	});

	it('package.json declares every key with the type the mapping expects', () => {
		const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
			contributes: {
				configuration: {
					properties: Record<
						string,
						{ type: unknown; default: unknown; scope?: string; items?: { type: string; pattern: string } }
					>;
				};
			};
		};
		const properties = manifest.contributes.configuration.properties;
		for (const key of [allow, ask, deny]) {
			expect(properties[key], key).toMatchObject({
				type: 'array',
				default: [],
				scope: 'resource',
				items: { type: 'string' },
			});
			// The settings editor's check accepts what the engine accepts.
			const pattern = new RegExp(properties[key]!.items!.pattern);
			for (const rule of [
				'command(npm test)',
				'mcp(github/*)',
				'tool(mcp__fs__*)',
				'read_url(*)',
				' command( git push* ) ',
			]) {
				expect(pattern.test(rule), rule).toBe(true);
			}
			for (const rule of ['(npm test)', 'npm test', 'command(x']) {
				expect(pattern.test(rule), rule).toBe(false);
				expect(compileRuleLists({ deny: [rule] }, 'settings').errors, rule).toHaveLength(1);
			}
		}
		expect(properties[approvalTimeoutSeconds]).toMatchObject({
			type: ['number', 'null'],
			default: null,
			scope: 'resource',
		});
		expect(properties[readWorkspaceServers]).toMatchObject({
			type: 'boolean',
			default: false,
			scope: 'resource',
		});
	});
});

describe('"always allow" grants in workspace state', () => {
	function memento() {
		const values = new Map<string, unknown>();
		return {
			values,
			get: <T>(key: string) => values.get(key) as T | undefined,
			update: async (key: string, value: unknown) => void values.set(key, value),
		};
	}

	it('adds each rule once, reads them back, ignores junk, clears', async () => {
		const state = memento();
		const store = new WorkspacePermissionStore(state);
		expect(store.rules()).toEqual([]);
		await store.add('command(npm test)');
		await store.add('command(npm test)');
		await store.add('mcp(github/get_issue)');
		expect(store.rules()).toEqual(['command(npm test)', 'mcp(github/get_issue)']);
		expect(new WorkspacePermissionStore(state).rules()).toEqual([
			'command(npm test)',
			'mcp(github/get_issue)',
		]);
		state.values.set(alwaysAllowKey, ['command(a)', 42]);
		expect(store.rules()).toEqual(['command(a)']);
		state.values.set(alwaysAllowKey, 'command(a)');
		expect(store.rules()).toEqual([]);
		await store.clear();
		expect(store.rules()).toEqual([]);
	});
});
