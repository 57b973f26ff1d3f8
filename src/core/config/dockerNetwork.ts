import { isRecord } from './isRecord.js';

/**
 * MassGen's Docker mode gives commands the network when `command_line_docker_network_mode` is not
 * `none`. Our sandbox's network is one switch per run, `permissions.command_network`: an agent in
 * Docker mode with `bridge` or `host` turns it on unless the config sets it (the warning for the
 * key says so; a config inside the workspace still cannot turn it on, see `toRunToolSettings`).
 */
export function mapDockerNetwork(raw: Record<string, unknown>): Record<string, unknown> {
	const agents = Array.isArray(raw.agents) ? raw.agents : [raw.agent];
	const wantsNetwork = agents.some(
		(agent) =>
			isRecord(agent) &&
			isRecord(agent.backend) &&
			agent.backend.command_line_execution_mode === 'docker' &&
			(agent.backend.command_line_docker_network_mode === 'bridge' ||
				agent.backend.command_line_docker_network_mode === 'host'),
	);
	const permissions = raw.permissions ?? {};
	if (!wantsNetwork || !isRecord(permissions) || permissions.command_network !== undefined) return raw;
	return { ...raw, permissions: { ...permissions, command_network: true } };
}
