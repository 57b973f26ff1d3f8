import type { BackendType } from '../../core/config/backendSchema.js';

/** A member Build Team's writer takes: its backend type, model and (a local server's) URL. */
export interface TeamMember {
	readonly type: BackendType;
	readonly model: string;
	readonly baseUrl?: string;
}
