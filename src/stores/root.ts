import { reaction, makeObservable, observable, action } from 'mobx';
import { UserStore, USER_MIRROR_KEYS, type UserSnapshot } from './user';
import { NavStore, FreeLoginStore, type NavSnapshot } from './nav';
import { browserStorage, type KeyValueStorage } from './storage';

/** localStorage key under which the user and persist areas are saved. */
export const PERSIST_KEY = 'root';
/** Pages render only after rehydration, which gives up waiting after this long. */
export const REHYDRATE_TIMEOUT_MS = 5000;
/** Keys mirrored one by one in localStorage (read by code outside the stores, e.g. request headers). */
export const MIRROR_KEYS = USER_MIRROR_KEYS;

export interface PersistedRoot {
  user: UserSnapshot;
  persist: { nav: NavSnapshot; freeLogin: { isFreeLogin: boolean } };
}

export class RootStore {
  readonly user: UserStore;
  readonly nav = new NavStore();
  readonly freeLogin = new FreeLoginStore();
  rehydrated = false;
  private disposeSave?: () => void;

  constructor(private readonly storage: KeyValueStorage = browserStorage()) {
    // Set here, not as a field initializer: class fields run before parameter properties are assigned.
    this.user = new UserStore(storage);
    makeObservable<RootStore, 'markRehydrated'>(this, { rehydrated: observable, markRehydrated: action, logout: action });
  }

  toPersisted(): PersistedRoot {
    return {
      user: this.user.snapshot(),
      persist: { nav: this.nav.snapshot(), freeLogin: { isFreeLogin: this.freeLogin.isFreeLogin } },
    };
  }

  /** Writes the 'root' entry and the mirrored keys. */
  save() {
    const p = this.toPersisted();
    this.write(PERSIST_KEY, JSON.stringify(p));
    this.write('token', p.user.token);
    this.write('refreshToken', p.user.refreshToken);
    this.write('companyId', p.user.businessInfo.businessId);
    this.write('chargeForm', p.user.businessInfo.chargeForm);
  }

  /** What this store last wrote, by key: a save (each menu click) writes only the entries that changed. */
  private readonly written = new Map<string, string>();
  private write(key: string, value: string) {
    if (this.written.get(key) === value && this.storage.getItem(key) === value) return;
    this.storage.setItem(key, value);
    this.written.set(key, value);
  }

  /**
   * Restores state from storage. A corrupt entry is kept aside under 'root.corrupt' (so nothing is lost)
   * and the stores keep their defaults. Resolves once hydrated or after `timeoutMs`, whichever is first.
   */
  async rehydrate(timeoutMs = REHYDRATE_TIMEOUT_MS): Promise<{ timedOut: boolean }> {
    const work = new Promise<void>((resolve) => {
      const raw = this.storage.getItem(PERSIST_KEY);
      if (raw) {
        try {
          const parsed = JSON.parse(raw) as Partial<PersistedRoot>;
          if (parsed && typeof parsed === 'object') {
            if (parsed.user) this.user.apply(parsed.user);
            if (parsed.persist?.nav) this.nav.apply(parsed.persist.nav);
            if (parsed.persist?.freeLogin) this.freeLogin.setFreeLogin(Boolean(parsed.persist.freeLogin.isFreeLogin));
          }
        } catch {
          this.storage.setItem(`${PERSIST_KEY}.corrupt`, raw);
        }
      }
      resolve();
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([work.then(() => 'done' as const), timeout]);
    clearTimeout(timer);
    this.markRehydrated();
    this.startAutoSave();
    return { timedOut: result === 'timeout' };
  }

  private markRehydrated() {
    this.rehydrated = true;
  }

  private startAutoSave() {
    this.disposeSave?.();
    this.disposeSave = reaction(
      () => JSON.stringify(this.toPersisted()),
      () => this.save(),
      { fireImmediately: true },
    );
  }

  /** Signs out: clears user state and empties the mirrored keys (they stay present as ''). */
  logout() {
    this.user.reset();
    this.nav.setOpenKeys([]);
    this.nav.setSelectedKeys([]);
    this.freeLogin.reset();
    this.save();
    for (const k of MIRROR_KEYS) this.storage.setItem(k, '');
  }

  dispose() {
    this.disposeSave?.();
  }
}

let singleton: RootStore | undefined;
export function getRootStore(): RootStore {
  if (!singleton) singleton = new RootStore();
  return singleton;
}
