/**
 * The sandbox keys a repository could use against the user: from a team config inside the
 * workspace, `command_sandbox: allow-unsandboxed` and `command_network: true` are ignored (and
 * named, for the run's warning); from a config outside it they are the user's choice.
 */
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { toRunToolSettings } from '../../../src/core/config/toSettings.js';

const config = (permissions: string) =>
	loadConfigText(
		`agents:\n  - id: a\n    backend: { type: scripted, enable_command_execution: true, script: { coordination: [{ answer: x }] } }\npermissions:\n${permissions}`,
		'team.yaml',
	).config!;

describe('toRunToolSettings: the command sandbox keys', () => {
	const weakening = config('  command_sandbox: allow-unsandboxed\n  command_network: true\n');

	it('ignores both from a config inside the workspace and names them', () => {
		const { permissions } = toRunToolSettings(weakening, { configFromWorkspace: true });
		expect(permissions).toMatchObject({ commandSandbox: 'required', commandNetwork: false });
		expect(permissions.ignoredSandboxKeys).toEqual(['command_sandbox', 'command_network']);
	});

	it('honours both from a config outside the workspace', () => {
		const { permissions } = toRunToolSettings(weakening, { configFromWorkspace: false });
		expect(permissions).toMatchObject({ commandSandbox: 'allow-unsandboxed', commandNetwork: true });
		expect(permissions.ignoredSandboxKeys).toEqual([]);
	});

	it('names nothing when a workspace config keeps the defaults', () => {
		const { permissions } = toRunToolSettings(config('  command_sandbox: required\n'), {
			configFromWorkspace: true,
		});
		expect(permissions.ignoredSandboxKeys).toEqual([]);
	});
});
