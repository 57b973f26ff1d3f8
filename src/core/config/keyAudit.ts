import { isCodingAgentType, hasCodingAgentAdapter } from '../providers/spec/codingAgentTypes.js';
import { providerToolUnsupported, type ProviderToolName } from '../providers/spec/providerToolSupport.js';
import { backendObject, inferBackendType } from './backendSchema.js';
import { formatPath } from './configIssue.js';
import { didYouMeanSuffix } from './didYouMean.js';
import { isRecord } from './isRecord.js';
import { isDefaultLike, supportedDisplayTypes, unsupportedKeys } from './massgenKeys.js';
import type { KeyLocation, UnsupportedKey } from './massgenKeys.js';
import {
	contextPathSchema,
	coordinationSchema,
	orchestratorSchema,
	timeoutSettingsSchema,
	uiSchema,
} from './orchestratorSchema.js';
import { agentObject, rootObject } from './schema.js';
import { mcpServerObject, permissionsSchema } from './toolsSchema.js';

type Path = (string | number)[];

/** A warning about a key or value the schema accepts (by ignoring it) but the user should know about. */
export interface KeyWarning {
	readonly path: Path;
	/** Point at the key itself or at its value. */
	readonly target: 'key' | 'value';
	readonly code: 'unknown-key' | 'unsupported-key' | 'unsupported-value';
	readonly message: string;
}

const knownKeys: Readonly<Record<KeyLocation, readonly string[]>> = {
	root: Object.keys(rootObject.shape),
	agent: Object.keys(agentObject.shape),
	backend: Object.keys(backendObject.shape),
	orchestrator: Object.keys(orchestratorSchema.shape),
	coordination: Object.keys(coordinationSchema.shape),
	context_path: Object.keys(contextPathSchema.shape),
	timeout_settings: Object.keys(timeoutSettingsSchema.shape),
	ui: Object.keys(uiSchema.shape),
	// `security` is accepted (MassGen configs have it) but warned about as ignored.
	mcp_server: Object.keys(mcpServerObject.shape).filter((key) => key !== 'security'),
	permissions: Object.keys(permissionsSchema.shape),
};

/**
 * Warnings for keys zod strips silently: MassGen keys we do not support yet (named, with a
 * hint) and unknown keys (with a did-you-mean). Backend keys we do not know are not warned
 * about: they are passed to the provider as `options`.
 */
export function auditKeys(raw: unknown): KeyWarning[] {
	const warnings: KeyWarning[] = [];
	const visit = (value: unknown, path: Path, location: KeyLocation): void => {
		if (!isRecord(value)) return;
		const known = knownKeys[location];
		const unsupported = unsupportedKeys[location];
		for (const [key, child] of Object.entries(value)) {
			if (known.includes(key)) continue;
			// `x-…` top-level keys hold YAML anchors (the docker-compose convention).
			if (location === 'root' && key.startsWith('x-')) continue;
			const entry = unsupported[key];
			const where = [...path, key];
			const place = path.length ? `in ${formatPath(path)}` : 'at the top level';
			if (entry) {
				if (!entry.always && isDefaultLike(child)) continue;
				const message = unsupportedMessage(entry, key, child, where, place);
				warnings.push({ path: where, target: 'key', code: 'unsupported-key', message });
				continue;
			}
			const suffix = didYouMeanSuffix(key, [...known, ...Object.keys(unsupported)]);
			// Unknown backend keys are provider options; only a likely typo is worth a warning. A
			// coding agent's CLI takes no options, so there every unknown key is named.
			const passedOn = location === 'backend' && !isCodingAgentType(value.type);
			if (passedOn && !suffix) continue;
			const fate = passedOn ? 'passed to the provider as is' : 'ignored';
			warnings.push({
				path: where,
				target: 'key',
				code: 'unknown-key',
				message: `unknown key '${key}' ${place}${suffix}; ${fate}`,
			});
		}
	};

	if (!isRecord(raw)) return warnings;
	visit(raw, [], 'root');
	const agents: [unknown, Path][] = [];
	if (isRecord(raw.agent)) agents.push([raw.agent, ['agent']]);
	if (Array.isArray(raw.agents)) raw.agents.forEach((agent, i) => agents.push([agent, ['agents', i]]));
	for (const [agent, path] of agents) {
		visit(agent, path, 'agent');
		if (!isRecord(agent)) continue;
		visit(agent.backend, [...path, 'backend'], 'backend');
		const type = isRecord(agent.backend) ? agent.backend.type : undefined;
		if (isCodingAgentType(type) && !hasCodingAgentAdapter(type)) {
			warnings.push({
				path: [...path, 'backend', 'type'],
				target: 'value',
				code: 'unsupported-value',
				message:
					`type '${type}' (a coding agent) cannot take part in a run yet: ` +
					'a run leaves this agent out and goes on with the others',
			});
		}
		if (isRecord(agent.backend)) warnings.push(...providerToolWarnings(agent.backend, [...path, 'backend']));
		const servers = isRecord(agent.backend) ? agent.backend.mcp_servers : undefined;
		const serverPath = [...path, 'backend', 'mcp_servers'];
		if (Array.isArray(servers)) {
			servers.forEach((server, i) => visit(server, [...serverPath, i], 'mcp_server'));
		} else if (isRecord(servers)) {
			for (const [name, server] of Object.entries(servers)) {
				visit(server, [...serverPath, name], 'mcp_server');
			}
		}
	}
	const { orchestrator, timeout_settings, ui, permissions } = raw;
	visit(permissions, ['permissions'], 'permissions');
	visit(orchestrator, ['orchestrator'], 'orchestrator');
	if (isRecord(orchestrator)) {
		visit(orchestrator.coordination, ['orchestrator', 'coordination'], 'coordination');
		if (Array.isArray(orchestrator.context_paths)) {
			orchestrator.context_paths.forEach((entry, i) =>
				visit(entry, ['orchestrator', 'context_paths', i], 'context_path'),
			);
		}
	}
	visit(timeout_settings, ['timeout_settings'], 'timeout_settings');
	visit(ui, ['ui'], 'ui');
	const displayType = isRecord(ui) ? ui.display_type : undefined;
	if (typeof displayType === 'string' && !supportedDisplayTypes.includes(displayType)) {
		warnings.push({
			path: ['ui', 'display_type'],
			target: 'value',
			code: 'unsupported-value',
			message:
				`ui.display_type '${displayType}' is not supported and is ignored ` +
				`(use ${supportedDisplayTypes.join(' or ')}; the display also adapts to the terminal)`,
		});
	}
	return warnings;
}

const providerToolKeys: readonly (readonly [string, ProviderToolName])[] = [
	['enable_web_search', 'webSearch'],
	['enable_code_execution', 'codeExecution'],
	['enable_code_interpreter', 'codeExecution'],
];

/** A provider tool turned on for a backend that has none is named, with the reason. */
function providerToolWarnings(backend: Record<string, unknown>, path: Path): KeyWarning[] {
	const model = typeof backend.model === 'string' ? backend.model : '';
	const type = typeof backend.type === 'string' ? backend.type : inferBackendType(model);
	const baseUrl = typeof backend.base_url === 'string' ? backend.base_url : undefined;
	if (type === undefined) return [];
	return providerToolKeys.flatMap(([key, tool]) => {
		const reason = backend[key] === true ? providerToolUnsupported(tool, type, baseUrl) : undefined;
		if (!reason) return [];
		const message = `'${key}' in ${formatPath(path)} is ignored: ${reason}`;
		return [{ path: [...path, key], target: 'key' as const, code: 'unsupported-key' as const, message }];
	});
}

const fates: Readonly<Record<NonNullable<UnsupportedKey['kind']> | 'not-yet', string>> = {
	mapped: 'is mapped',
	'not-applied': 'is not applied',
	'python-only': 'is Python-only and is ignored',
	'not-yet': 'is not supported yet and is ignored',
};

function unsupportedMessage(
	entry: UnsupportedKey,
	key: string,
	value: unknown,
	where: Path,
	place: string,
): string {
	const text = typeof entry.hint === 'function' ? entry.hint(value) : entry.hint;
	const hint = text ? `: ${text}` : '';
	if (entry.ignoredByMassGen) return `'${formatPath(where)}' is ignored (MassGen ignores it too)${hint}`;
	return `MassGen key '${key}' ${place} ${fates[entry.kind ?? 'not-yet']}${hint}`;
}
