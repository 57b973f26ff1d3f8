/** Vitest setup file: the temp trees a test file made are removed when it ends. */
import { afterAll } from 'vitest';
import { removeTrees } from './tempTree.js';

afterAll(removeTrees);
