export { AnnotationEditor } from './annotation-editor';
export type { AnnotationClass, AnnotationEditorProps, AnnotationSettings, BoxRegion } from './types';
