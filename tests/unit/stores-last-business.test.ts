import { describe, expect, it } from 'vitest';
import { RootStore, PERSIST_KEY } from '../../src/stores/root';
import type { Business } from '../../src/stores/user';
import { memoryStorage } from '../../src/stores/storage';

const biz: Business[] = [
  { businessId: 'b1', businessName: '甲', chargeForm: 'prepaid', userType: 'admin', servicePacks: [] },
  { businessId: 'b2', businessName: '乙', chargeForm: 'postpaid', userType: 'operator', servicePacks: [] },
];
const session = (userTel: string, businessList = biz) => ({ token: 't', refreshToken: 'r', userTel, businessList });

describe('the business entered last', () => {
  it('is entered again at the next sign-in of the same phone, also after sign-out and a reload', async () => {
    const storage = memoryStorage();
    const first = new RootStore(storage);
    await first.rehydrate();
    first.user.setSession(session('13800000000'));
    expect(first.user.currentBusiness).toBeUndefined(); // two businesses, none remembered: the business step asks
    first.user.selectBusiness('b2');
    first.logout();
    expect(first.user.businessInfo.businessId).toBe('');

    const next = new RootStore(storage); // a reload
    await next.rehydrate();
    expect(JSON.parse(storage.getItem(PERSIST_KEY)!).user.lastBusiness).toEqual({ userTel: '13800000000', businessId: 'b2' });
    next.user.setSession(session('13800000000'));
    expect(next.user.currentBusiness?.businessId).toBe('b2');
    expect(storage.getItem('companyId')).toBe('b2');
  });

  it('is not used for another phone, nor when it is no longer one of the businesses', () => {
    const s = new RootStore(memoryStorage());
    s.user.setSession(session('13800000000'));
    s.user.selectBusiness('b2');
    s.logout();
    s.user.setSession(session('13900000000'));
    expect(s.user.currentBusiness).toBeUndefined();
    s.logout();
    s.user.setSession(session('13800000000', [biz[0], { ...biz[1], businessId: 'b3' }]));
    expect(s.user.currentBusiness).toBeUndefined();
  });

  it('a single business is entered directly', () => {
    const s = new RootStore(memoryStorage());
    s.user.setSession(session('13800000000', [biz[1]]));
    expect(s.user.currentBusiness?.businessId).toBe('b2');
  });
});
