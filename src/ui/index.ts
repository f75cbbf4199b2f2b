export { Button, IconButton, type ButtonProps, type IconButtonProps } from './Button.tsx';
export { TextField, Select, Checkbox, Switch, type TextFieldProps, type SelectProps, type CheckboxProps } from './fields.tsx';
export { Dialog, type DialogProps } from './Dialog.tsx';
export { Badge, Card, PageHeader, EmptyState, Notice, type Tone } from './display.tsx';
export { Spinner } from './Spinner.tsx';
export { Tabs, type TabItem } from './Tabs.tsx';
export { ToastProvider, useToast, type ToastInput, type ToastTone } from './toast.tsx';
export { cx } from './cx.ts';
export { ThemeProvider, useTheme, type Theme, type ThemeChoice } from './theme.tsx';
