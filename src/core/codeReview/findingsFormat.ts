import { severityOrder } from './findings.js';

/**
 * The findings format both review questions ask for (`parseFindings` reads it): one ```findings
 * block with a JSON list, each finding's place (`where` says how lines are counted), its severity
 * in the review vocabulary (`Severity`), a short title and the reason.
 */
export function findingsFormat(options: {
	readonly where: string;
	readonly example: { readonly path?: string; readonly line: number; readonly endLine: number };
}): string {
	const fence = '```';
	const example = JSON.stringify([
		{
			...options.example,
			severity: 'medium',
			title: 'A few words naming the problem',
			message: 'What is wrong and why, in one or two sentences.',
		},
	]);
	return [
		`Report your findings in your answer in exactly one fenced block tagged \`findings\` holding a JSON list. ${options.where} \`severity\` is ${severityOrder.map((level) => `\`${level}\``).join(', ')}: high for a bug, security hole or data loss that must be fixed before the change is used; medium for a real problem worth fixing first; low for a minor point. \`title\` names the problem in a few words; \`message\` says what is wrong and why. Write \`[]\` if you find nothing. For example:`,
		`${fence}findings`,
		example,
		fence,
	].join('\n');
}
