import type { KeyValueStore } from '../storage/key-value-store';
import { targetCatalogSchema, type TargetCatalog } from '../protocol/target-catalog';
import { checkRegistration, mergeCatalog, userTargetListSchema, type UserTarget } from './user-targets';

export const USER_TARGETS_KEY = 'userTargets';

export interface TargetRegistryOptions {
  /** The built-in catalog as the build wrote it, not yet validated. */
  fetchBuiltIn(): Promise<unknown>;
  storage: KeyValueStore;
}

interface Loaded {
  catalog: TargetCatalog;
  userTargets: UserTarget[];
}

/** The built-in targets and the ones the user registered, read once and kept until the stored list changes. */
export class TargetRegistry {
  private builtInCatalog: Promise<TargetCatalog> | undefined;
  private loaded: Promise<Loaded> | undefined;

  constructor(private readonly options: TargetRegistryOptions) {
    options.storage.onChange(USER_TARGETS_KEY, () => (this.loaded = undefined));
  }

  builtIn(): Promise<TargetCatalog> {
    return (this.builtInCatalog ??= this.options.fetchBuiltIn().then((json) => {
      const parsed = targetCatalogSchema.safeParse(json);
      if (!parsed.success) throw new Error(`The target catalog is broken: ${parsed.error.issues[0]?.message}`);
      return parsed.data;
    }));
  }

  async catalog(): Promise<TargetCatalog> {
    return (await this.load()).catalog;
  }

  async userTargets(): Promise<UserTarget[]> {
    return (await this.load()).userTargets;
  }

  /** Adds a target the user registers by URL, or replaces the one with its id. */
  async register(entryUrl: string, manifest: unknown): Promise<{ targetId: string }> {
    const registration = checkRegistration(entryUrl, manifest, await this.builtIn());
    if (!registration.ok) throw new Error(registration.error);
    const { target } = registration;
    const others = (await this.userTargets()).filter((known) => known.manifest.id !== target.manifest.id);
    await this.save([...others, target]);
    return { targetId: target.manifest.id };
  }

  async unregister(targetId: string): Promise<{ removed: string }> {
    await this.save((await this.userTargets()).filter((target) => target.manifest.id !== targetId));
    return { removed: targetId };
  }

  private load(): Promise<Loaded> {
    const loading = (this.loaded ??= Promise.all([this.builtIn(), this.readUserTargets()]).then(
      ([builtIn, userTargets]) => ({ catalog: mergeCatalog(builtIn, userTargets), userTargets }),
    ));
    loading.catch(() => {
      if (this.loaded === loading) this.loaded = undefined;
    });
    return loading;
  }

  /** A broken stored list reads as none: the built-in targets still work. */
  private async readUserTargets(): Promise<UserTarget[]> {
    const parsed = userTargetListSchema.safeParse((await this.options.storage.get(USER_TARGETS_KEY)) ?? []);
    return parsed.success ? parsed.data : [];
  }

  private async save(targets: UserTarget[]): Promise<void> {
    await this.options.storage.set(USER_TARGETS_KEY, targets);
    this.loaded = undefined;
  }
}
