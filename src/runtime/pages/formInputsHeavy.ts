import { ArrayTable, DatePicker, NumberPicker } from '@formily/antd-v5';

/** The heavy Formily inputs (see formInputs.ts); imported only through FormPage's lazy field renderer. */
export const HEAVY_INPUTS = { ArrayTable, DatePicker, NumberPicker };
