import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../src/core/util/errorMessage.js';

describe('errorMessage', () => {
	it("is an Error's message, without its name or stack", () => {
		expect(errorMessage(new TypeError('bad input'))).toBe('bad input');
	});

	it('is String() of anything else', () => {
		expect(errorMessage('plain')).toBe('plain');
		expect(errorMessage(42)).toBe('42');
		expect(errorMessage(undefined)).toBe('undefined');
		expect(errorMessage({ message: 'not an Error' })).toBe('[object Object]');
	});
});
