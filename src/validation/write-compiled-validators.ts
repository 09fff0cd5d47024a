/** `npm run build`'s last step: the ahead-of-time validators (compiled-validators.ts). */
import { writeCompiledValidators } from './compiled-validators.js';

const written = await writeCompiledValidators();
console.log(`compiled ${written.length} request validators into ${written.map((file) => file.replace(/.*\/dist\//, 'dist/')).join(', ')}`);
