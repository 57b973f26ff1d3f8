/**
 * `escapeMarkdown` (src/vscode/common/runName.ts) shows a run's question literally in Markdown: the
 * change status bar's tooltip (a MarkdownString trusted with Accept All, Review and Reject All), the
 * Runs view's tooltips and the LM tool's confirmation. Rendered with marked (VS Code's renderer):
 * no link, image, emphasis or HTML of the question's, and its text as written.
 */
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from '../../../src/vscode/common/runName';

const hostile = [
	// An autolink to a command the status bar's tooltip trusts (VS Code's appendText leaves `<`).
	'Fix it <command:massgen.acceptChanges?%5B%5D>',
	'See https://evil.example/x and www.evil.example',
	'[Accept All](command:massgen.acceptChanges) ![t](https://evil.example/t.png)',
	'**bold** _it_ ~~gone~~ `code` <b>html</b> &lt; # not a heading',
];

const unescapeEntities = (html: string) =>
	html
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&');

describe('escapeMarkdown', () => {
	it.each(hostile)('%s renders as its own text, nothing more', (text) => {
		const html = marked.parse(`- ${escapeMarkdown(text)}`, { async: false }).trim();
		expect(html).not.toMatch(/<a |<img |<strong>|<em>|<del>|<code>|<b>/);
		expect(unescapeEntities(html)).toBe(`<ul>\n<li>${text}</li>\n</ul>`);
	});
});
