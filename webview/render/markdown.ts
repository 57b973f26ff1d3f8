/**
 * Model-written Markdown (final answer, answers) → a sanitised DOM fragment. Raw HTML in the
 * Markdown is shown as text, the result is filtered again by DOMPurify with an allow-list, images
 * become a text placeholder (no remote loads, no CSP reports) and links lose their `href`, so
 * nothing in an answer can run code, load a resource, or navigate. An http(s) link keeps its address
 * as a tooltip and in `data-url`: a click asks the host to open it (`linkUrlOf`), which confirms first.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const purify = DOMPurify(window);

const allowedTags = [
	'p',
	'br',
	'hr',
	'h1',
	'h2',
	'h3',
	'h4',
	'h5',
	'h6',
	'strong',
	'em',
	'del',
	's',
	'code',
	'pre',
	'blockquote',
	'ul',
	'ol',
	'li',
	'a',
	'table',
	'thead',
	'tbody',
	'tr',
	'th',
	'td',
	'span',
];
const allowedAttributes = ['href', 'title', 'class', 'start', 'align'];

purify.addHook('afterSanitizeAttributes', (node) => {
	if (node.nodeName === 'A') {
		const href = node.getAttribute('href');
		node.removeAttribute('href');
		if (href) node.setAttribute('title', href);
		node.setAttribute('class', 'md-link');
		const url = httpUrl(href);
		if (url) node.setAttribute('data-url', url);
	} else if (node.hasAttribute('class')) {
		const kept = (node.getAttribute('class') ?? '')
			.split(/\s+/)
			.filter((name) => /^(language-[\w+#.-]{1,40}|md-[a-z-]{1,20})$/.test(name));
		if (kept.length > 0) node.setAttribute('class', kept.join(' '));
		else node.removeAttribute('class');
	}
});

/** An absolute http(s) URL, normalised; anything else (javascript:, data:, relative) is undefined. */
function httpUrl(value: string | null): string | undefined {
	if (!value) return undefined;
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
	} catch {
		return undefined;
	}
}

/** The address a click on rendered Markdown asks to open: an http(s) link's, else undefined. */
export function linkUrlOf(target: EventTarget | null): string | undefined {
	const link = (target as Element | null)?.closest?.('.markdown a.md-link');
	return httpUrl(link?.getAttribute('data-url') ?? null);
}

const escapeHtml = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const marked = new Marked({
	async: false,
	gfm: true,
	renderer: {
		html: ({ text }) => escapeHtml(text),
		image: ({ text }) => `<span class="md-image">[image: ${escapeHtml(text || 'no description')}]</span>`,
		checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
	},
});

/** Renders Markdown to a sanitised fragment (never throws: falls back to plain text). */
export function renderMarkdown(markdown: string): DocumentFragment {
	let html: string;
	try {
		html = marked.parse(markdown) as string;
	} catch {
		const fragment = document.createDocumentFragment();
		fragment.append(document.createTextNode(markdown));
		return fragment;
	}
	return purify.sanitize(html, {
		ALLOWED_TAGS: allowedTags,
		ALLOWED_ATTR: allowedAttributes,
		ALLOW_DATA_ATTR: false,
		ALLOW_ARIA_ATTR: false,
		RETURN_DOM_FRAGMENT: true,
	});
}

/** A container for rendered Markdown; link clicks never navigate (belt and braces). */
export function markdownBlock(markdown: string, className = 'markdown'): HTMLDivElement {
	const div = document.createElement('div');
	div.className = className;
	div.append(renderMarkdown(markdown));
	div.addEventListener('click', (event) => {
		if ((event.target as Element | null)?.closest?.('a')) event.preventDefault();
	});
	return div;
}
