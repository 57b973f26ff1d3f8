import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonSchemaText } from '../../src/core/config/jsonSchema.js';

/** `npm run schema`: regenerates configs/massgen.schema.json from the zod schema. */
const target = join(__dirname, '..', '..', 'configs', 'massgen.schema.json');
writeFileSync(target, jsonSchemaText());
process.stdout.write(`wrote ${target}\n`);
