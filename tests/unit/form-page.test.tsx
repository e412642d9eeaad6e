// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { FormPage } from '../../src/runtime/pages/FormPage';
import { getForm } from '../../src/schema/registry';
import { useAntdDom } from './dom';
import { fillLogin, loginButton, loginFormChecks, stubFetch, stubFieldErrorThenSuccess } from './login-form';

useAntdDom();

const renderLogin = (onSubmitted: (data: unknown) => void) =>
  render(<MemoryRouter><FormPage schema={getForm('login')} bare onSubmitted={onSubmitted} /></MemoryRouter>);

describe('FormPage from the login schema', () => {
  loginFormChecks(renderLogin);

  it('puts a gateway field error on its field with the label in the summary, clears it on edit, and submits again', async () => {
    const fetchMock = stubFieldErrorThenSuccess();
    const onSubmitted = vi.fn();
    renderLogin(onSubmitted);
    fillLogin('13800000001', 'demo1234');
    const phone = screen.getByPlaceholderText('请输入手机号');
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('该手机号未注册账号'));
    expect(screen.getByRole('alert').textContent).not.toContain('手机号：该手机号'); // the message names its field already
    expect(screen.getByRole('alert').textContent).not.toContain('phone：');
    // on the field itself (exact text), not only in the summary
    await waitFor(() => expect(document.querySelector('.ant-formily-item-error-help')?.textContent).toBe('该手机号未注册账号'));
    fireEvent.change(phone, { target: { value: '13800000000' } });
    await waitFor(() => expect(screen.queryByText('该手机号未注册账号')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(loginButton());
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('shows required messages in Chinese, never Formily\'s English default', async () => {
    const fetchMock = stubFetch();
    renderLogin(() => {});
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByText('请填写手机号')).toBeTruthy());
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(document.body.textContent).not.toContain('The field value is required');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
