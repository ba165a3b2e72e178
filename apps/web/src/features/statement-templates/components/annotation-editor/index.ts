export { AnnotationEditor } from './annotation-editor';
export type { AnnotationClass, BoxRegion } from './types';
