import { rng } from '../helpers/fuzz.js';

/** The rand state of input i of a fuzz run: a seeded mix of the run seed and the index, so (seed, i) names an input. */
export function inputRand(seed: number, i: number): () => number {
  return rng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0);
}
