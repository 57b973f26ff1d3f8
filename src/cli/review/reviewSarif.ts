/**
 * A review as SARIF 2.1.0 (`massgen review --sarif FILE`, docs/cli.md#massgen-review), for
 * code-scanning tools. One rule per severity; agreed findings are results of kind `fail` at their
 * level (high `error`, medium `warning`, low `note`), single-agent findings of kind `review` (level
 * `none`, as SARIF requires for a kind other than `fail`). Locations are relative to `SRCROOT`, the
 * workspace; a finding whose path is absolute or leaves the workspace keeps no location.
 */
import { posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, Result } from 'sarif';
import type { MergedFinding } from '../../core/codeReview/agreement.js';
import { severityOrder, type Severity } from '../../core/codeReview/findings.js';
import type { ReviewOutcome } from '../../core/codeReview/reviewOutcome.js';
import type { DiffSource } from '../../core/context/attachment.js';

const levels = { high: 'error', medium: 'warning', low: 'note' } as const;

const ruleId = (severity: Severity) => `massgen-review/${severity}`;

export interface SarifInput {
	readonly outcome: ReviewOutcome;
	/** Absolute: the base of every location. */
	readonly workspace: string;
	readonly source: DiffSource;
	/** null: nothing to review, no run. */
	readonly runId: string | null;
	readonly toolVersion: string;
}

export function reviewSarif(input: SarifInput): Log {
	const { outcome } = input;
	const result = (finding: MergedFinding, agreed: boolean): Result => {
		const uri = workspaceUri(finding.path);
		return {
			ruleId: ruleId(finding.severity),
			ruleIndex: severityOrder.indexOf(finding.severity),
			kind: agreed ? 'fail' : 'review',
			level: agreed ? levels[finding.severity] : 'none',
			message: {
				text: `${finding.title}: ${finding.message} (raised by ${finding.agents.length} of ${outcome.of} agents)`,
			},
			...(uri
				? {
						locations: [
							{
								physicalLocation: {
									artifactLocation: { uri, uriBaseId: 'SRCROOT' },
									region: { startLine: finding.line, endLine: finding.endLine },
								},
							},
						],
					}
				: {}),
			properties: {
				severity: finding.severity,
				agreed,
				agents: [...finding.agents],
				of: outcome.of,
				inWinningReview: finding.inWinner,
				...(finding.path !== undefined && !uri ? { path: finding.path } : {}),
				reasons: finding.reasons.map((reason) => ({ ...reason })),
			},
		};
	};
	return {
		$schema: 'https://json.schemastore.org/sarif-2.1.0.json',
		version: '2.1.0',
		runs: [
			{
				tool: {
					driver: {
						name: 'MassGen',
						version: input.toolVersion,
						rules: severityOrder.map((severity) => ({
							id: ruleId(severity),
							name: `${severity[0]!.toUpperCase()}${severity.slice(1)}SeverityFinding`,
							shortDescription: { text: `A ${severity}-severity finding of a MassGen team review` },
							defaultConfiguration: { level: levels[severity] },
						})),
					},
				},
				originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(`${input.workspace}/`).href } },
				invocations: [{ executionSuccessful: true }],
				results: [
					...outcome.agreed.map((finding) => result(finding, true)),
					...outcome.single.map((finding) => result(finding, false)),
				],
				properties: { ...(input.runId ? { runId: input.runId } : {}), diff: input.source },
			},
		],
	};
}

/** The path as a relative URI under the workspace, or undefined when it names no file inside it. */
function workspaceUri(path: string | undefined): string | undefined {
	if (path === undefined || path.includes('\\') || posix.isAbsolute(path)) return undefined;
	const normal = posix.normalize(path);
	if (normal === '.' || normal === '..' || normal.startsWith('../')) return undefined;
	return normal.split('/').map(encodeURIComponent).join('/');
}
