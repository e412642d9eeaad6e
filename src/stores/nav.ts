import { action, makeObservable, observable } from 'mobx';

export type MenuType = 'inline' | 'horizontal';

export interface NavSnapshot {
  horizontalSelectedUrl: string;
  openKeys: string[];
  selectedKeys: string[];
  menuType: MenuType;
}

export const navDefaults = (): NavSnapshot => ({
  horizontalSelectedUrl: '/',
  openKeys: [],
  selectedKeys: [],
  menuType: 'inline',
});

export class NavStore implements NavSnapshot {
  horizontalSelectedUrl = '/';
  openKeys: string[] = [];
  selectedKeys: string[] = [];
  menuType: MenuType = 'inline';

  constructor() {
    makeObservable(this, {
      horizontalSelectedUrl: observable,
      openKeys: observable.ref,
      selectedKeys: observable.ref,
      menuType: observable,
      setOpenKeys: action,
      setSelectedKeys: action,
      setMenuType: action,
      setHorizontalSelectedUrl: action,
      reset: action,
      apply: action,
    });
  }

  setOpenKeys(keys: string[]) {
    this.openKeys = keys;
  }
  setSelectedKeys(keys: string[]) {
    this.selectedKeys = keys;
  }
  setMenuType(t: MenuType) {
    this.menuType = t;
  }
  setHorizontalSelectedUrl(url: string) {
    this.horizontalSelectedUrl = url;
  }
  reset() {
    Object.assign(this, navDefaults());
  }
  apply(s: Partial<NavSnapshot>) {
    const d = navDefaults();
    this.horizontalSelectedUrl = typeof s.horizontalSelectedUrl === 'string' ? s.horizontalSelectedUrl : d.horizontalSelectedUrl;
    this.openKeys = Array.isArray(s.openKeys) ? s.openKeys.map(String) : d.openKeys;
    this.selectedKeys = Array.isArray(s.selectedKeys) ? s.selectedKeys.map(String) : d.selectedKeys;
    this.menuType = s.menuType === 'horizontal' || s.menuType === 'inline' ? s.menuType : d.menuType;
  }
  snapshot(): NavSnapshot {
    return {
      horizontalSelectedUrl: this.horizontalSelectedUrl,
      openKeys: this.openKeys,
      selectedKeys: this.selectedKeys,
      menuType: this.menuType,
    };
  }
}

export class FreeLoginStore {
  isFreeLogin = false;
  constructor() {
    makeObservable(this, { isFreeLogin: observable, setFreeLogin: action, reset: action });
  }
  setFreeLogin(v: boolean) {
    this.isFreeLogin = v;
  }
  reset() {
    this.isFreeLogin = false;
  }
}
