/**
 * The fuzz mutators, one per reader (`npm run fuzz -- --reader NAME`). A new reader (ETL,
 * .gcdump) adds one module implementing ReaderMutator (types.ts) and one line here.
 */
import { etlMutator } from './etl.js';
import { gcdumpMutator } from './gcdump.js';
import { nettraceMutator } from './nettrace.js';
import type { ReaderMutator } from './types.js';

export const MUTATORS: Record<string, ReaderMutator> = {
  nettrace: nettraceMutator,
  etl: etlMutator,
  gcdump: gcdumpMutator,
};
