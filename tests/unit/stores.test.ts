import { describe, it, expect } from 'vitest';
import { RootStore, PERSIST_KEY, REHYDRATE_TIMEOUT_MS } from '../../src/stores/root';
import { memoryStorage } from '../../src/stores/storage';
import { UserStore, type Business } from '../../src/stores/user';

const biz: Business[] = [
  { businessId: 'b1', businessName: '甲公司', chargeForm: 'prepaid', userType: 'admin', servicePacks: ['attendance'] },
  { businessId: 'b2', businessName: '乙公司', chargeForm: 'postpaid', userType: 'operator', servicePacks: [] },
];

describe('stores', () => {
  it('start with the spec defaults', async () => {
    const s = new RootStore(memoryStorage());
    expect(s.user.snapshot()).toEqual({
      token: '', refreshToken: '', userTel: '', businessList: [],
      businessInfo: { businessId: '', chargeForm: '' }, authFlag: true,
    });
    expect(s.nav.snapshot()).toEqual({ horizontalSelectedUrl: '/', openKeys: [], selectedKeys: [], menuType: 'inline' });
    expect(s.freeLogin.isFreeLogin).toBe(false);
    expect(REHYDRATE_TIMEOUT_MS).toBe(5000);
    expect(s.rehydrated).toBe(false);
  });

  it('persist user and persist areas under "root" and mirror token/refreshToken/companyId/chargeForm', async () => {
    const storage = memoryStorage();
    const s = new RootStore(storage);
    await s.rehydrate();
    s.user.setSession({ token: 't1', refreshToken: 'r1', userTel: '13800000000', businessList: biz });
    s.user.selectBusiness('b2');
    s.nav.setMenuType('horizontal');
    const root = JSON.parse(storage.getItem(PERSIST_KEY)!);
    expect(root.user.token).toBe('t1');
    expect(root.user.businessInfo).toEqual({ businessId: 'b2', chargeForm: 'postpaid' });
    expect(root.persist.nav.menuType).toBe('horizontal');
    expect(storage.getItem('token')).toBe('t1');
    expect(storage.getItem('refreshToken')).toBe('r1');
    expect(storage.getItem('companyId')).toBe('b2');
    expect(storage.getItem('chargeForm')).toBe('postpaid');

    const again = new RootStore(storage);
    await again.rehydrate();
    expect(again.rehydrated).toBe(true);
    expect(again.user.token).toBe('t1');
    expect(again.user.currentBusiness?.businessName).toBe('乙公司');
    expect(again.nav.menuType).toBe('horizontal');
  });

  it('a menu click saves the "root" entry only; the mirrored keys are written when they change, and again after another writer', async () => {
    const storage = memoryStorage();
    const writes: string[] = [];
    const counting = { ...storage, setItem: (k: string, v: string) => (writes.push(k), storage.setItem(k, v)) };
    const s = new RootStore(counting);
    await s.rehydrate();
    s.user.setSession({ token: 't1', refreshToken: 'r1', userTel: '13800000000', businessList: biz });
    s.user.selectBusiness('b1');
    writes.length = 0;
    s.nav.setSelectedKeys(['/main/a']);
    expect(writes).toEqual([PERSIST_KEY]);
    expect(JSON.parse(storage.getItem(PERSIST_KEY)!).persist.nav.selectedKeys).toEqual(['/main/a']);
    writes.length = 0;
    s.user.selectBusiness('b2');
    expect([...new Set(writes)].sort()).toEqual(['chargeForm', 'companyId', PERSIST_KEY].sort());
    // Another tab or code outside the store emptied the token: the next save writes it back.
    storage.setItem('token', '');
    s.nav.setSelectedKeys(['/main/b']);
    expect(storage.getItem('token')).toBe('t1');
  });

  it('logout clears the mirrored keys to empty strings', async () => {
    const storage = memoryStorage();
    const s = new RootStore(storage);
    await s.rehydrate();
    s.user.setSession({ token: 't1', refreshToken: 'r1', userTel: '13800000000', businessList: biz });
    s.user.selectBusiness('b1');
    s.logout();
    for (const k of ['token', 'refreshToken', 'companyId', 'chargeForm']) expect(storage.getItem(k)).toBe('');
    expect(s.user.isLoggedIn).toBe(false);
    expect(JSON.parse(storage.getItem(PERSIST_KEY)!).user.token).toBe('');
  });

  it('selects the only business automatically and refuses a foreign one', async () => {
    const s = new RootStore(memoryStorage());
    s.user.setSession({ token: 't', refreshToken: 'r', userTel: '1', businessList: [biz[0]] });
    expect(s.user.businessInfo).toEqual({ businessId: 'b1', chargeForm: 'prepaid' });
    expect(() => s.user.selectBusiness('zzz')).toThrow(/not one of this account/);
  });

  it('keeps a corrupt saved entry aside instead of losing it', async () => {
    const storage = memoryStorage({ [PERSIST_KEY]: '{not json' });
    const s = new RootStore(storage);
    const r = await s.rehydrate();
    expect(r.timedOut).toBe(false);
    expect(storage.getItem(`${PERSIST_KEY}.corrupt`)).toBe('{not json');
    expect(s.user.token).toBe('');
  });

  it('has one setter per session field, each replacing the stored value', () => {
    const storage = memoryStorage();
    const u = new UserStore(storage);
    u.setToken('t1');
    u.setToken('t2');
    u.setRefreshToken('r1');
    u.setUserTel('13800000000');
    u.setBusinessList(biz);
    u.setBusinessList([biz[1]]);
    u.setBusinessInfo({ businessId: 'b2', chargeForm: 'postpaid' });
    u.setAuthFlag(false);
    expect(u.snapshot()).toEqual({
      token: 't2',
      refreshToken: 'r1',
      userTel: '13800000000',
      businessList: [biz[1]],
      businessInfo: { businessId: 'b2', chargeForm: 'postpaid' },
      authFlag: false,
      lastBusiness: { userTel: '13800000000', businessId: 'b2' },
    });
    u.setBusinessInfo({ businessId: 'b9', chargeForm: 'prepaid' });
    expect(u.businessInfo).toEqual({ businessId: 'b9', chargeForm: 'prepaid' });
  });

  it('mirrors token, refreshToken, companyId and chargeForm in local storage as the setters run', () => {
    const storage = memoryStorage();
    const u = new UserStore(storage);
    u.setToken('t1');
    u.setRefreshToken('r1');
    u.setUserTel('13800000000');
    u.setBusinessInfo({ businessId: 'b1', chargeForm: 'prepaid' });
    expect(storage.dump()).toEqual({ token: 't1', refreshToken: 'r1', companyId: 'b1', chargeForm: 'prepaid' });
    // Missing parts fall back to ''.
    u.setBusinessInfo({ businessId: 'b2' });
    expect(storage.getItem('companyId')).toBe('b2');
    expect(storage.getItem('chargeForm')).toBe('');
    u.setBusinessInfo(null);
    expect(u.businessInfo).toEqual({ businessId: '', chargeForm: '' });
    expect([storage.getItem('companyId'), storage.getItem('chargeForm')]).toEqual(['', '']);
  });

  it('clearAll empties exactly token, refreshToken, userTel and businessInfo and blanks the mirrors', () => {
    const storage = memoryStorage({ other: 'kept' });
    const u = new UserStore(storage);
    u.setSession({ token: 't', refreshToken: 'r', userTel: '13800000000', businessList: biz });
    u.selectBusiness('b1');
    u.setAuthFlag(false);
    u.clearAll();
    expect(u.snapshot()).toEqual({
      token: '',
      refreshToken: '',
      userTel: '',
      businessList: biz,
      businessInfo: { businessId: '', chargeForm: '' },
      authFlag: false,
      // The business entered last is remembered through sign-out (entered again at the next sign-in).
      lastBusiness: { userTel: '13800000000', businessId: 'b1' },
    });
    expect(storage.dump()).toEqual({ other: 'kept', token: '', refreshToken: '', companyId: '', chargeForm: '' });
  });

  it('keeps the higher-level methods working through the setters', async () => {
    const storage = memoryStorage();
    const s = new RootStore(storage);
    s.user.setSession({ token: 't1', refreshToken: 'r1', userTel: '1', businessList: biz });
    expect(storage.getItem('token')).toBe('t1'); // mirrored before any autosave (not rehydrated yet)
    s.user.selectBusiness('b2');
    expect(storage.getItem('companyId')).toBe('b2');
    s.user.setTokens('t2', 'r2');
    expect([storage.getItem('token'), storage.getItem('refreshToken')]).toEqual(['t2', 'r2']);
    s.user.reset();
    expect(s.user.snapshot()).toEqual({
      token: '', refreshToken: '', userTel: '', businessList: [],
      businessInfo: { businessId: '', chargeForm: '' }, authFlag: true,
      lastBusiness: { userTel: '1', businessId: 'b2' },
    });
    await s.rehydrate();
    s.user.setToken('t3');
    const root = JSON.parse(storage.getItem(PERSIST_KEY)!);
    expect(Object.keys(root)).toEqual(['user', 'persist']);
    expect(Object.keys(root.persist)).toEqual(['nav', 'freeLogin']);
    expect(root.persist.freeLogin).toEqual({ isFreeLogin: false });
    expect(root.user.token).toBe('t3');
  });
});
