import { action, makeObservable, observable, computed } from 'mobx';

export type ChargeForm = 'prepaid' | 'postpaid' | '';
export type UserType = 'admin' | 'operator';

export interface Business {
  businessId: string;
  businessName: string;
  chargeForm: Exclude<ChargeForm, ''>;
  userType: UserType;
  servicePacks: string[];
  balance?: number;
}

export interface BusinessInfo {
  businessId: string;
  chargeForm: ChargeForm;
}

export interface UserSnapshot {
  token: string;
  refreshToken: string;
  userTel: string;
  businessList: Business[];
  businessInfo: BusinessInfo;
  authFlag: boolean;
}

export const userDefaults = (): UserSnapshot => ({
  token: '',
  refreshToken: '',
  userTel: '',
  businessList: [],
  businessInfo: { businessId: '', chargeForm: '' },
  authFlag: true,
});

export class UserStore implements UserSnapshot {
  token = '';
  refreshToken = '';
  userTel = '';
  businessList: Business[] = [];
  businessInfo: BusinessInfo = { businessId: '', chargeForm: '' };
  authFlag = true;

  constructor() {
    makeObservable(this, {
      token: observable,
      refreshToken: observable,
      userTel: observable,
      businessList: observable.ref,
      businessInfo: observable.ref,
      authFlag: observable,
      isLoggedIn: computed,
      currentBusiness: computed,
      setSession: action,
      setTokens: action,
      setBusinessList: action,
      selectBusiness: action,
      setAuthFlag: action,
      reset: action,
      apply: action,
    });
  }

  get isLoggedIn(): boolean {
    return Boolean(this.token);
  }

  /** The selected business, looked up in the list (undefined until one is picked). */
  get currentBusiness(): Business | undefined {
    return this.businessList.find((b) => b.businessId === this.businessInfo.businessId);
  }

  setSession(s: { token: string; refreshToken: string; userTel: string; businessList: Business[] }) {
    this.token = s.token;
    this.refreshToken = s.refreshToken;
    this.userTel = s.userTel;
    this.businessList = s.businessList;
    this.authFlag = true;
    // Keep a previous choice only if it is still one of this user's businesses.
    if (!s.businessList.some((b) => b.businessId === this.businessInfo.businessId)) {
      this.businessInfo = { businessId: '', chargeForm: '' };
    }
    if (s.businessList.length === 1) this.selectBusiness(s.businessList[0].businessId);
  }

  setTokens(token: string, refreshToken: string) {
    this.token = token;
    this.refreshToken = refreshToken;
  }

  setBusinessList(list: Business[]) {
    this.businessList = list;
  }

  /** Picks one of the user's businesses; throws for an id that is not in the list. */
  selectBusiness(businessId: string) {
    const b = this.businessList.find((x) => x.businessId === businessId);
    if (!b) throw new Error(`Business ${businessId} is not one of this account's businesses`);
    this.businessInfo = { businessId: b.businessId, chargeForm: b.chargeForm };
  }

  setAuthFlag(v: boolean) {
    this.authFlag = v;
  }

  reset() {
    Object.assign(this, userDefaults());
  }

  apply(s: Partial<UserSnapshot>) {
    const d = userDefaults();
    this.token = typeof s.token === 'string' ? s.token : d.token;
    this.refreshToken = typeof s.refreshToken === 'string' ? s.refreshToken : d.refreshToken;
    this.userTel = typeof s.userTel === 'string' ? s.userTel : d.userTel;
    this.businessList = Array.isArray(s.businessList) ? s.businessList : d.businessList;
    this.businessInfo =
      s.businessInfo && typeof s.businessInfo === 'object'
        ? { businessId: String(s.businessInfo.businessId ?? ''), chargeForm: (s.businessInfo.chargeForm ?? '') as ChargeForm }
        : d.businessInfo;
    this.authFlag = typeof s.authFlag === 'boolean' ? s.authFlag : d.authFlag;
  }

  snapshot(): UserSnapshot {
    return {
      token: this.token,
      refreshToken: this.refreshToken,
      userTel: this.userTel,
      businessList: this.businessList,
      businessInfo: this.businessInfo,
      authFlag: this.authFlag,
    };
  }
}
