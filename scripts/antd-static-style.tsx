/**
 * antd's styles as one static CSS text, made at build time (vite.config.ts imports it as the virtual
 * module `virtual:antd-static.css`, which the entry imports before anything renders).
 *
 * antd 5 writes its styles at run time (CSS-in-JS): the first time a component renders, its styles are
 * computed and inserted as a <style> tag, one tag at a time, each insertion scanning the tags before it.
 * On the first list page that was ~58 tags inside one long main-thread task. @ant-design/cssinjs skips
 * both steps for every style a static file already holds: the file ends with a rule
 * `.data-ant-cssinjs-cache-path{content:"<path>:<hash>;…"}` that the runtime reads once, and a style
 * whose path is listed is neither computed nor inserted.
 *
 * The file is made as antd's static extraction (@ant-design/static-style-extract) makes it — render under
 * our ConfigProvider (the same theme as the console's, so the hashes match) into a cssinjs cache, then
 * write the cache out — but from the components the console renders, not every component antd exports:
 * `CONSOLE_ANTD_COMPONENTS` (each antd component src/ imports; tests/unit/antd-static-style.test.ts keeps
 * the list complete) plus the shapes the console renders them in (the menu layout, a list's table,
 * toolbar and pager) and Formily's inputs, whose styles go through the same runtime. antd's whole set was
 * 988 kB of CSS, a fifth of it for components no page shows (mentions, carousel, transfer, tree …), and
 * every element's style is matched against the rules that end in a tag or an attribute (`td`, `a`,
 * `[class^="ant-…"]`), whichever component they belong to. A style that is not in the file (another
 * theme, a component added without the list) is still inserted at run time as before. The nested copies
 * of antd's box-sizing resets, which select nothing the simple ones do not, are left out (css-resets.ts).
 */
import React from 'react';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { renderToString } from 'react-dom/server';
import * as antd from 'antd';
import { Badge, Button, Checkbox, ConfigProvider, Divider, Drawer, Dropdown, Layout, Menu, Modal, Popconfirm, Popover, Space, Spin, Table, Tag, Tooltip, message, notification } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { createForm } from '@formily/core';
import { createSchemaField } from '@formily/react';
import { ArrayTable, DatePicker, Form, FormButtonGroup, FormItem, Input, NumberPicker, Password, Select, Submit, Switch } from '@formily/antd-v5';
import { CONSOLE_THEME } from '../src/runtime/layouts/theme.ts';
import { dropCoveredResets } from './css-resets.ts';

const SchemaField = createSchemaField({ components: { ArrayTable, DatePicker, FormItem, Input, NumberPicker, Password, Select, Switch } });
const field = (component: string) => ({ type: 'string', 'x-decorator': 'FormItem', 'x-component': component });
const FORM_SCHEMA = {
  type: 'object',
  properties: {
    ...Object.fromEntries(['Input', 'Password', 'Select', 'DatePicker', 'NumberPicker', 'Switch'].map((c) => [c, field(c)])),
    rows: {
      type: 'array',
      'x-decorator': 'FormItem',
      'x-component': 'ArrayTable',
      items: {
        type: 'object',
        properties: { c: { type: 'void', 'x-component': 'ArrayTable.Column', 'x-component-props': { title: 'c' }, properties: { n: field('Input') } } },
      },
    },
  },
};

/** Toasts and notifications: their holders register their styles when they mount (BasicLayout). */
function Feedback() {
  const [, messageHolder] = message.useMessage();
  const [, notificationHolder] = notification.useNotification();
  return (
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
}

const MENU_ITEMS = [{ key: '/a', label: 'a', icon: <span />, children: [{ key: '/a/b', label: 'b' }] }];

/** What the header of the menu layout shows (HeaderActions.tsx): a business switch with tags, menus. */
const headerActions = () => [
  <Space key="a">
    <Tag color="blue">a</Tag>
    <Tag color="gold">b</Tag>
    <Tag>c</Tag>
    <Dropdown menu={{ items: [{ key: 'a', label: 'a' }] }}>
      <a>d</a>
    </Dropdown>
  </Space>,
];

/**
 * The antd components the console renders (its imports from 'antd', components only). Popups that
 * render nothing while closed (Modal, Drawer, Tooltip, Popover, Popconfirm) and ConfigProvider are drawn
 * in ConsoleComponents below instead.
 */
export const CONSOLE_ANTD_COMPONENTS = [
  'Alert', 'Badge', 'Breadcrumb', 'Button', 'Card', 'Checkbox', 'Col', 'DatePicker', 'Descriptions', 'Divider', 'Dropdown',
  'Empty', 'Form', 'Image', 'Input', 'InputNumber', 'Layout', 'List', 'Menu', 'Pagination', 'Popconfirm', 'Popover', 'Progress',
  'Result', 'Row', 'Select', 'Skeleton', 'Space', 'Spin', 'Statistic', 'Table', 'Tabs', 'Tag', 'Tooltip', 'Typography', 'Upload',
  'Modal', 'Drawer', 'ConfigProvider',
] as const;
const DRAWN_BELOW = new Set(['Modal', 'Drawer', 'Tooltip', 'Popover', 'Popconfirm', 'ConfigProvider', 'Dropdown', 'Menu']);

/** Each listed component once in its default shape, as antd's extraction renders it. */
function ListedComponents() {
  return (
    <>
      {CONSOLE_ANTD_COMPONENTS.filter((n) => !DRAWN_BELOW.has(n)).map((n) => {
        const C = antd[n] as React.ComponentType;
        return <C key={n} />;
      })}
    </>
  );
}

/**
 * The components antd's extraction leaves out (popups, which it does not render) or renders in one shape
 * only, and the Formily inputs the console renders, in the shapes it renders them.
 */
function ConsoleComponents() {
  const form = createForm({ initialValues: { rows: [{ n: '' }] } });
  return (
    <>
      <Feedback />
      <Tooltip title="a">
        <span />
      </Tooltip>
      <Popover content="a">
        <span />
      </Popover>
      <Popconfirm title="a">
        <span />
      </Popconfirm>
      <Modal open={false} />
      <Drawer open={false} />
      <Tag color="success">a</Tag>
      <Space.Compact>
        <Button>a</Button>
      </Space.Compact>
      {/* The menu layout (MenuLayout.tsx, SideMenu.tsx): header, side menu (open and folded), top menu. */}
      <Layout>
        <Layout.Header>
          <Menu mode="horizontal" items={MENU_ITEMS} selectedKeys={['/a/b']} />
          {headerActions()}
        </Layout.Header>
        <Layout hasSider>
          <Layout.Sider theme="light" trigger={null} breakpoint="xl">
            <Menu mode="inline" items={MENU_ITEMS} selectedKeys={['/a/b']} openKeys={['/a']} />
          </Layout.Sider>
          <Layout.Sider theme="light" trigger={null} collapsed>
            <Menu mode="inline" items={MENU_ITEMS} />
          </Layout.Sider>
          <Layout.Content>
            {/* A list (table/ConsoleTable.tsx): the search form, the toolbar with its settings, the table, the pager. */}
            <Divider type="vertical" />
            <Checkbox indeterminate>a</Checkbox>
            <Badge status="success" text="a" />
            <Table
              rowKey="a"
              columns={[
                { title: 'a', dataIndex: 'a', sorter: true, ellipsis: true },
                { title: 'o', key: 'o', fixed: 'right', width: 100 },
              ]}
              dataSource={[{ a: '1' }]}
              pagination={{ showSizeChanger: true, showQuickJumper: true, pageSizeOptions: ['30', '50', '100'] }}
              scroll={{ x: 2000, y: 300 }}
              sticky
            />
            <Form form={form} layout="vertical">
              <SchemaField schema={FORM_SCHEMA} />
              <FormButtonGroup>
                <Submit>ok</Submit>
              </FormButtonGroup>
            </Form>
          </Layout.Content>
        </Layout>
      </Layout>
    </>
  );
}

/** The CSS text: antd's components in the console's shapes and Formily's inputs, in the console theme. */
export function antdStaticCss(): string {
  // renderToString warns about useLayoutEffect on the server for some components: not our concern here.
  const warn = console.error;
  console.error = () => undefined;
  try {
    const cache = createCache();
    renderToString(
      <StyleProvider cache={cache}>
        {/* The spinner shown while the saved state loads, before the console's theme applies (PersistLayout). */}
        <Spin size="large" />
        <ConfigProvider locale={zhCN} theme={CONSOLE_THEME} button={{ autoInsertSpace: false }}>
          <ListedComponents />
          <ConsoleComponents />
        </ConfigProvider>
      </StyleProvider>,
    );
    return dropCoveredResets(extractStyle(cache, true)).css;
  } finally {
    console.error = warn;
  }
}
