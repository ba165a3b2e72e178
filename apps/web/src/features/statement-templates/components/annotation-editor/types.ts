import type { MappingType } from '@pagewright/shared';

/**
 * The annotation editor's contract (issue 15): an SVG over one page image, boxes in page fractions.
 * The template modal owns loading and saving; the editor owns drawing, selection, zoom, pan,
 * classes, history and hotkeys.
 */

/** A class: a field name and its type (the classes panel; hotkeys 1-9 pick the first nine). */
export interface AnnotationClass {
  label: string;
  type: MappingType;
}

/** A box region (x, y, w, h are fractions 0-1 of the page, top-left origin). */
export interface BoxRegion {
  /** A local id (a saved box keeps its server id until the page is saved again). */
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** The class label (mapping_label); null until a class is chosen. */
  cls: string | null;
  type: MappingType;
  /** Beyond the spec: the label text the box is read relative to. */
  anchorText: string | null;
  color: string;
  highlighted?: boolean;
  locked?: boolean;
  visible?: boolean;
}

/** The editor's settings dialog (spec defaults: WASD panning on, highlight box on, crosshairs off). */
export interface AnnotationSettings {
  showCrosshairs: boolean;
  showHighlightBox: boolean;
  wasdMode: boolean;
}

export interface AnnotationEditorProps {
  /** The page image (a signed address that loads without the bearer token). */
  imageSrc: string;
  imageWidth: number;
  imageHeight: number;
  /** Boxes of this page when it opens (the modal reloads them per page). */
  initialRegions: BoxRegion[];
  classes: AnnotationClass[];
  onClassesChange: (classes: AnnotationClass[]) => void;
  /** Called with the page's boxes whenever they change (the modal saves them). */
  onRegionsChange: (regions: BoxRegion[]) => void;
  /** Tools shown; the template modal passes ['select', 'create-box'] (spec). */
  enabledTools?: ('select' | 'pan' | 'zoom' | 'create-box')[];
  onPreviousPage?: () => void;
  onNextPage?: () => void;
  /** Page k of n, shown beside previous/next. */
  pageLabel?: string;
}
