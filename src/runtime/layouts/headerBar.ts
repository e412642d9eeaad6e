/** The top bar of both signed-in layouts (workbench and menu): white, sticky, brand left, actions right. */
export const HEADER_BAR_STYLE = {
  position: 'sticky',
  top: 0,
  zIndex: 10,
  display: 'flex',
  alignItems: 'center',
  gap: 32,
  padding: '0 24px',
  background: '#fff',
  borderBottom: '1px solid #f0f0f0',
} as const;
