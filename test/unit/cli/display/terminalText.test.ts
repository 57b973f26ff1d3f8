import { describe, expect, it } from 'vitest';
import {
	fitToWidth,
	formatCost,
	formatDuration,
	formatTokens,
	sanitizeTerminalText,
	textWidth,
	truncateToWidth,
} from '../../../../src/cli/display/terminalText.js';

describe('terminal text', () => {
	it('removes CSI/OSC sequences, controls and bidi overrides; line breaks become spaces', () => {
		expect(
			sanitizeTerminalText('a\u001b[31mred\u001b[0m\r\nb\tc\u0007\u202eevil\u001b]8;;http://x\u001b\\link'),
		).toBe('ared b cevillink');
	});

	it('measures wide and combining characters', () => {
		expect(textWidth('abc')).toBe(3);
		expect(textWidth('漢字')).toBe(4);
		expect(textWidth('e\u0301')).toBe(1);
		expect(textWidth('🚀')).toBe(2);
	});

	it('truncates and fits by display width', () => {
		expect(truncateToWidth('hello world', 5)).toBe('hell…');
		expect(truncateToWidth('hello', 5)).toBe('hello');
		expect(truncateToWidth('漢字漢字', 5)).toBe('漢字…');
		expect(truncateToWidth('abc', 0)).toBe('');
		expect(fitToWidth('ab', 4)).toBe('ab  ');
		expect(fitToWidth('ab', 4, 'right')).toBe('  ab');
	});

	it('formats tokens, cost and durations', () => {
		expect([formatTokens(950), formatTokens(12_345), formatTokens(4_500_000)]).toEqual([
			'950',
			'12.3k',
			'4.5M',
		]);
		expect([formatCost(null), formatCost(0.0123), formatCost(1.256), formatCost(0)]).toEqual([
			'no price',
			'$0.0123',
			'$1.26',
			'$0.0000',
		]);
		expect([formatDuration(850), formatDuration(12_340), formatDuration(125_000)]).toEqual([
			'850ms',
			'12.3s',
			'2m05s',
		]);
	});
});
