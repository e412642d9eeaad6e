import type { ComponentType, ReactNode } from 'react';
import { createElement } from 'react';
import {
  AccountBookOutlined,
  AlertOutlined,
  AuditOutlined,
  BankOutlined,
  CalendarOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DollarOutlined,
  FileProtectOutlined,
  FileTextOutlined,
  FormOutlined,
  HistoryOutlined,
  HomeOutlined,
  IdcardOutlined,
  LockOutlined,
  LoginOutlined,
  MedicineBoxOutlined,
  ProfileOutlined,
  ReadOutlined,
  RollbackOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  SolutionOutlined,
  SwapOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UploadOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { IconName } from '../schema/types';

/**
 * The icons a schema may name (ICON_NAMES), each imported by name so the bundle holds these 30 and
 * not the whole @ant-design/icons set. Typed by IconName: adding a name to ICON_NAMES without its
 * import here fails the type check.
 */
const ICONS: Record<IconName, ComponentType> = {
  AccountBookOutlined,
  AlertOutlined,
  AuditOutlined,
  BankOutlined,
  CalendarOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DollarOutlined,
  FileProtectOutlined,
  FileTextOutlined,
  FormOutlined,
  HistoryOutlined,
  HomeOutlined,
  IdcardOutlined,
  LockOutlined,
  LoginOutlined,
  MedicineBoxOutlined,
  ProfileOutlined,
  ReadOutlined,
  RollbackOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  SolutionOutlined,
  SwapOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UploadOutlined,
  UserOutlined,
  WalletOutlined,
};

/** Resolves an antd icon name from a schema (validated against ICON_NAMES) to an element. */
export function iconFor(name?: string): ReactNode {
  if (!name) return undefined;
  const C = (ICONS as Record<string, ComponentType | undefined>)[name];
  return C ? createElement(C) : undefined;
}
