import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settings } from '../../../src/vscode/common/settings';

/**
 * Every `massgen.*` setting as a hostile repository's `.vscode/settings.json` or `.code-workspace`
 * would use it. Each has a verdict: `machine`/`application` scope (VS Code ignores workspace values
 * and the code reads the user's value only), restricted (VS Code drops workspace values in an
 * untrusted workspace), or a merge that only ever tightens what the user set. A new setting fails
 * here until someone decides which.
 */
type Verdict =
	| { readonly scope: 'machine' | 'application'; readonly why: string }
	| { readonly scope: 'resource'; readonly restricted: true; readonly why: string }
	| { readonly scope: 'resource'; readonly restricted: false; readonly tightensOnly: string };

const verdicts: Record<string, Verdict> = {
	'massgen.config': {
		scope: 'resource',
		restricted: true,
		why: 'names the team config: untrusted, a workspace value is dropped and a config inside the workspace is not used',
	},
	'massgen.previewBeforeApply': {
		scope: 'resource',
		restricted: true,
		why: 'the user’s review step before accept: an untrusted workspace cannot turn it off',
	},
	'massgen.permissions.allow': {
		scope: 'resource',
		restricted: true,
		why: 'widens what agents may do without asking (also ignored in code when untrusted)',
	},
	'massgen.permissions.ask': { scope: 'resource', restricted: false, tightensOnly: 'lists add up' },
	'massgen.permissions.deny': { scope: 'resource', restricted: false, tightensOnly: 'lists add up' },
	'massgen.permissions.approvalTimeoutSeconds': {
		scope: 'resource',
		restricted: false,
		tightensOnly: 'a timeout denies; 1 s to a day, so at worst a question is denied sooner',
	},
	'massgen.commands.allowUnsandboxed': {
		scope: 'application',
		why: 'lowers the sandbox: the user’s own settings only (read from globalValue)',
	},
	'massgen.codingAgents.claudeCodePath': {
		scope: 'machine',
		why: 'an executable the run starts: the user’s own settings only (read from globalValue)',
	},
	'massgen.codingAgents.codexPath': {
		scope: 'machine',
		why: 'an executable the run starts: the user’s own settings only (read from globalValue)',
	},
	'massgen.maxCostUsd': { scope: 'resource', restricted: false, tightensOnly: 'the lowest level wins' },
	'massgen.maxCostUsdPerDay': { scope: 'resource', restricted: false, tightensOnly: 'the lowest level wins' },
	'massgen.maxTokens': { scope: 'resource', restricted: false, tightensOnly: 'the lowest level wins' },
	'massgen.confirmCostAboveUsd': {
		scope: 'resource',
		restricted: false,
		tightensOnly: 'the lowest level wins (asks sooner)',
	},
	'massgen.providerTools': {
		scope: 'resource',
		restricted: false,
		tightensOnly: 'the strictest of allow < ask < deny wins',
	},
	'massgen.secretPaths': {
		scope: 'resource',
		restricted: false,
		tightensOnly: 'patterns only add secrets',
	},
	'massgen.instructions.enabled': {
		scope: 'resource',
		restricted: false,
		tightensOnly:
			'off at any level wins; on only gives the agents the workspace’s own files, never untrusted',
	},
	'massgen.mcp.readWorkspaceServers': {
		scope: 'resource',
		restricted: true,
		why: 'reads the workspace’s own MCP files: untrusted, never (also checked in code); trusted, their processes and env values need consent',
	},
	'massgen.runs.keep': {
		scope: 'resource',
		restricted: true,
		why: 'deletes run folders (the user’s logs and revert records): an untrusted workspace cannot shorten retention',
	},
	'massgen.plan.depth': {
		scope: 'resource',
		restricted: true,
		why: 'a deeper plan asks the team for more (and costs more): an untrusted workspace cannot choose it',
	},
	'massgen.runs.maxConcurrent': {
		scope: 'application',
		why: 'how many runs spend at once: the user’s own settings only (read from globalValue)',
	},
};

interface Manifest {
	capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations?: string[] } };
	contributes: {
		configuration: {
			properties: Record<string, { scope?: string; type?: unknown; default?: unknown; enum?: unknown }>;
		};
	};
}
const manifest = JSON.parse(
	readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
) as Manifest;
const properties = manifest.contributes.configuration.properties;
const restricted = new Set(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? []);

describe('every massgen.* setting against a hostile workspace', () => {
	it('has a verdict, and no verdict names a setting that is gone', () => {
		expect(Object.keys(properties).sort()).toEqual(Object.keys(verdicts).sort());
	});

	it.each(Object.entries(verdicts))('%s: scope and restriction as decided', (key, verdict) => {
		expect(properties[key]?.scope ?? 'window').toBe(verdict.scope);
		const isRestricted = 'restricted' in verdict && verdict.restricted;
		expect(restricted.has(key)).toBe(isRestricted);
	});

	it('package.json and the settings table (src/vscode/common/settings.ts) declare the same settings alike', () => {
		const table = Object.values(settings);
		expect(table.map((spec) => spec.key).sort()).toEqual(Object.keys(properties).sort());
		for (const spec of table) {
			const declared = properties[spec.key];
			expect(declared?.type, spec.key).toEqual(spec.type);
			expect(declared?.default, spec.key).toEqual(spec.default);
			expect(declared?.scope, spec.key).toBe(spec.scope);
			expect(declared?.enum, spec.key).toEqual('enum' in spec ? spec.enum : undefined);
			expect(restricted.has(spec.key), spec.key).toBe(spec.restricted);
		}
	});

	it.each(Object.values(settings))('$key: the merge policy fits the verdict', (spec) => {
		const verdict = verdicts[spec.key]!;
		// The user's own value only exactly where VS Code ignores workspace values anyway.
		expect(spec.policy === 'userOnly', spec.key).toBe(verdict.scope !== 'resource');
		// A setting a workspace may set in Restricted Mode tightens, or is plain only for a stated reason.
		if (spec.policy === 'tightenOnly') expect('tightensOnly' in verdict, spec.key).toBe(true);
	});

	it('restricts only settings it declares, and is limited (not unsupported) in untrusted workspaces', () => {
		for (const key of restricted) expect(properties[key], key).toBeDefined();
		expect(manifest.capabilities.untrustedWorkspaces.supported).toBe('limited');
	});
});
