// The types of eslint.config.js's named exports, which tests/wiring/lib-dependencies.test.ts reads.
import type { Linter } from 'eslint';

export declare const libDependencies: Record<string, string[]>;
export declare const libFoldersToCome: string[];
export declare const libDependencyExceptions: { file: string; imports: string; reason: string }[];
declare const config: Linter.Config[];
export default config;
