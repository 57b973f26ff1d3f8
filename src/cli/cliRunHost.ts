import { join } from 'node:path';
import { codingAgentPathsFromEnv } from '../core/util/cliPathVariables.js';
import { formatIssue } from '../core/config/configIssue.js';
import { ApprovalBroker } from '../core/permissions/approvalBroker.js';
import type { RunHost } from '../core/run/runHost.js';
import type { Redactor } from '../core/secrets/redactor.js';
import { cliApprovalPolicy } from './approvalPrompt.js';
import type { RunArgs } from './args.js';
import type { CliIo } from './cliIo.js';
import { cliKeyHost, cliNamedConfig } from './cliHost.js';
import { confirmEstimate } from './estimatePrompt.js';
import { defaultStorePath, FilePermissionStore } from './permissionStore.js';
import { cliProviderToolsPolicy } from './providerToolsPrompt.js';
import { shippedConfigsDir } from './shippedFiles.js';
import { cliWorkspaceTrust } from './trustPrompt.js';
import { defaultTrustStorePath, FileTrustStore } from './trustStore.js';

/** What the run host takes from a command's flags (`run`, `chat`, `plan`). */
export type CliRunOptions = Pick<
	RunArgs,
	'config' | 'approvals' | 'unsandboxedCommands' | 'trustWorkspace' | 'providerTools'
>;

export interface CliRunHost extends RunHost {
	/** Where approval requests wait (the terminal approver answers them on a terminal). */
	readonly broker: ApprovalBroker;
}

/**
 * The CLI's answers to the run port: `--config`, the process environment (and `.env`: the CLI
 * trusts the workspace's files, its commands run sandboxed in a copy), the folder-trust store or
 * one terminal question, the estimate and provider-tools prompts or their flags; its log is stderr.
 */
export function cliRunHost(
	command: CliRunOptions,
	io: CliIo,
	root: string,
	options: { readonly interactive: boolean; readonly learnSecrets: (redactor: Redactor) => void },
): CliRunHost {
	const input = options.interactive ? io.stdin : undefined;
	const say = (message: string) => void io.stderr.write(`massgen: ${message}\n`);
	const broker = new ApprovalBroker({
		policy: cliApprovalPolicy(command.approvals ?? 'ask', options.interactive),
	});
	return {
		paths: { shippedConfigsDir: shippedConfigsDir(), codingAgents: codingAgentPathsFromEnv(io.env) },
		...cliKeyHost(io.env),
		broker,
		namedConfig: () => cliNamedConfig(command.config),
		learnSecrets: options.learnSecrets,
		onTeam: (resolution) => {
			const { dropped, issues } = resolution.ok ? resolution.team : resolution;
			for (const left of dropped) io.stderr.write(`default team: leaving out ${left.id}: ${left.why}\n`);
			for (const issue of issues) io.stderr.write(`${formatIssue(issue)}\n`);
			if (issues.some((issue) => issue.code === 'no-available-agents')) {
				// Nothing usable here: the scripted demo team needs no key and no server.
				const demo = join(shippedConfigsDir(), 'demo.yaml');
				say(`to try MassGen without a key or a local model: massgen run --config ${demo} "QUESTION"`);
			}
		},
		tools: {
			broker,
			// Workspace Trust's meaning (run_command on): commands run sandboxed in a copy. The
			// folder's own servers, CLI paths and key hosts are `decideTrust`'s.
			trusted: true,
			allowUnsandboxedCommands: command.unsandboxedCommands === true,
			store: new FilePermissionStore(defaultStorePath(io.env), root),
		},
		// Before anything starts or any run directory exists: what the folder's own config would run.
		decideTrust: (listing) =>
			cliWorkspaceTrust({
				root,
				listing,
				store: new FileTrustStore(defaultTrustStorePath(io.env)),
				flag: command.trustWorkspace === true,
				input,
				output: io.stderr,
			}),
		confirmEstimate: (estimate, caps) =>
			confirmEstimate(estimate, caps, { output: io.stderr, input, yes: command.approvals === 'yes' }),
		providerTools: cliProviderToolsPolicy(command.providerTools ?? 'ask', { output: io.stderr, input }),
		log: { info: say, warn: say, error: say },
	};
}
