/** The inbox's control classes: the shared ones of src/components/controls.ts. */
export { BUTTON, INPUT, LABEL, MUTED } from '../../../components/controls.ts';
