import { action, makeObservable, observable, computed } from 'mobx';
import { browserStorage, type KeyValueStorage } from './storage';

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

/** The business last entered, by phone: kept through sign-out so the next sign-in enters it again. */
export interface LastBusiness {
  userTel: string;
  businessId: string;
}

export interface UserSnapshot {
  token: string;
  refreshToken: string;
  userTel: string;
  businessList: Business[];
  businessInfo: BusinessInfo;
  authFlag: boolean;
  lastBusiness?: LastBusiness;
}

export const userDefaults = (): UserSnapshot => ({
  token: '',
  refreshToken: '',
  userTel: '',
  businessList: [],
  businessInfo: { businessId: '', chargeForm: '' },
  authFlag: true,
});

/** localStorage keys mirrored by the session setters (read outside the stores, e.g. by older code). */
export const USER_MIRROR_KEYS = ['token', 'refreshToken', 'companyId', 'chargeForm'] as const;

export class UserStore implements UserSnapshot {
  token = '';
  refreshToken = '';
  userTel = '';
  businessList: Business[] = [];
  businessInfo: BusinessInfo = { businessId: '', chargeForm: '' };
  authFlag = true;
  lastBusiness: LastBusiness = { userTel: '', businessId: '' };

  /** `storage` receives the mirrored keys (token, refreshToken, companyId, chargeForm). */
  constructor(private readonly storage: KeyValueStorage = browserStorage()) {
    makeObservable(this, {
      setToken: action,
      setRefreshToken: action,
      setUserTel: action,
      setBusinessInfo: action,
      clearAll: action,
      token: observable,
      refreshToken: observable,
      userTel: observable,
      businessList: observable.ref,
      businessInfo: observable.ref,
      authFlag: observable,
      lastBusiness: observable.ref,
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

  // One setter per field (spec §4): each replaces the stored value.

  /** Replaces the token and mirrors it to localStorage 'token'. */
  setToken(token: string) {
    this.token = token ?? '';
    this.storage.setItem('token', this.token);
  }

  /** Replaces the refresh token and mirrors it to localStorage 'refreshToken'. */
  setRefreshToken(refreshToken: string) {
    this.refreshToken = refreshToken ?? '';
    this.storage.setItem('refreshToken', this.refreshToken);
  }

  setUserTel(tel: string) {
    this.userTel = tel ?? '';
  }

  setBusinessList(list: Business[]) {
    this.businessList = list ?? [];
  }

  /** Replaces the business info; mirrors businessId as 'companyId' and chargeForm as 'chargeForm' ('' when absent). */
  setBusinessInfo(info: Partial<BusinessInfo> | null | undefined) {
    this.businessInfo = { businessId: info?.businessId ?? '', chargeForm: info?.chargeForm ?? '' };
    this.storage.setItem('companyId', this.businessInfo.businessId);
    this.storage.setItem('chargeForm', this.businessInfo.chargeForm);
    if (this.businessInfo.businessId && this.userTel) this.lastBusiness = { userTel: this.userTel, businessId: this.businessInfo.businessId };
  }

  setAuthFlag(v: boolean) {
    this.authFlag = v;
  }

  /**
   * Empties token, refreshToken, userTel and businessInfo (businessList and authFlag are kept) and blanks
   * the mirrored token, refreshToken, companyId and chargeForm.
   */
  clearAll() {
    this.token = '';
    this.refreshToken = '';
    this.userTel = '';
    this.businessInfo = { businessId: '', chargeForm: '' };
    for (const k of USER_MIRROR_KEYS) this.storage.setItem(k, '');
  }

  /**
   * Stores a fresh sign-in (login answer) through the setters and enters a business when the choice is
   * clear: the only one, the one still selected, or the one this phone entered last — each only while
   * it is still one of the user's businesses. Otherwise none is selected (the business step asks).
   */
  setSession(s: { token: string; refreshToken: string; userTel: string; businessList: Business[] }) {
    this.setToken(s.token);
    this.setRefreshToken(s.refreshToken);
    this.setUserTel(s.userTel);
    this.setBusinessList(s.businessList);
    this.setAuthFlag(true);
    const mine = (id: string) => Boolean(id) && s.businessList.some((b) => b.businessId === id);
    const remembered = this.lastBusiness.userTel === s.userTel ? this.lastBusiness.businessId : '';
    if (s.businessList.length === 1) this.selectBusiness(s.businessList[0].businessId);
    else if (mine(this.businessInfo.businessId)) this.selectBusiness(this.businessInfo.businessId);
    else if (mine(remembered)) this.selectBusiness(remembered);
    else this.setBusinessInfo(null);
  }

  /** Renewed tokens (request client). */
  setTokens(token: string, refreshToken: string) {
    this.setToken(token);
    this.setRefreshToken(refreshToken);
  }

  /** Picks one of the user's businesses; throws for an id that is not in the list. */
  selectBusiness(businessId: string) {
    const b = this.businessList.find((x) => x.businessId === businessId);
    if (!b) throw new Error(`Business ${businessId} is not one of this account's businesses`);
    this.setBusinessInfo({ businessId: b.businessId, chargeForm: b.chargeForm });
  }

  /** Everything back to the defaults (sign-out): clearAll plus an empty business list and authFlag true. */
  reset() {
    this.clearAll();
    this.businessList = [];
    this.authFlag = true;
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
    const last = s.lastBusiness;
    this.lastBusiness =
      last && typeof last === 'object' ? { userTel: String(last.userTel ?? ''), businessId: String(last.businessId ?? '') } : { userTel: '', businessId: '' };
  }

  snapshot(): UserSnapshot {
    return {
      token: this.token,
      refreshToken: this.refreshToken,
      userTel: this.userTel,
      businessList: this.businessList,
      businessInfo: this.businessInfo,
      authFlag: this.authFlag,
      // Only once a business was entered (the spec's user fields stay as they are until then).
      ...(this.lastBusiness.businessId ? { lastBusiness: this.lastBusiness } : {}),
    };
  }
}
