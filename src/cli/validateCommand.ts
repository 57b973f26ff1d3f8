import { checkApiKeys } from '../core/config/apiKeys.js';
import { formatIssue, hasErrors } from '../core/config/configIssue.js';
import { loadConfigFile } from '../core/config/loadConfig.js';
import { agentRoleLines } from '../core/config/toSettings.js';
import { cliKeys } from './cliHost.js';

/** `massgen validate FILE`: positioned issues on stderr; 0 when usable (warnings allowed), 1 otherwise. */
export async function validateCommand(
	file: string,
	env: NodeJS.ProcessEnv,
	stderr: NodeJS.WritableStream,
): Promise<number> {
	const result = await loadConfigFile(file);
	// The keys a run started here would have (the folder's `.env` too, as `massgen run` reads it).
	const keys = await cliKeys(process.cwd(), env);
	const issues = [...result.issues, ...checkApiKeys(result, keys, 'validate')];
	for (const issue of issues) stderr.write(`${formatIssue(issue)}\n`);
	if (hasErrors(issues)) return 1;
	const agents = result.config?.agents.length ?? 0;
	stderr.write(
		`${file}: ok (${agents} agent${agents === 1 ? '' : 's'}${issues.length ? `, ${issues.length} warning(s)` : ''})\n`,
	);
	for (const line of agentRoleLines(result.config!)) stderr.write(`  ${line}\n`);
	const cap = result.config!.permissions.max_cost_usd;
	if (cap !== null) {
		stderr.write(
			`  budget: $${cap} per run (permissions.max_cost_usd; a lower --max-cost or massgen.maxCostUsd applies)\n`,
		);
	}
	return 0;
}
