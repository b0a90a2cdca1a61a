/** Pages of a refused or failed request: a plain explanation, never internals. */
import { html, type Html } from './html.ts';
import { page, type PageContext } from './layout.ts';

const titles: Record<number, string> = {
  400: 'Datos no válidos',
  403: 'Acceso denegado',
  404: 'No encontrado',
  410: 'Ya no disponible',
  413: 'Archivo demasiado grande',
  429: 'Demasiados intentos',
  500: 'Error del servicio',
};
const texts: Record<number, string> = {
  400: 'La solicitud tiene datos que no son válidos.',
  403: 'Tu rol no permite ver esta página, o el formulario ya no es válido: recarga la página e intenta de nuevo.',
  404: 'La página o el registro que buscas no existe.',
  410: 'El registro se borró con los datos personales de la solicitud.',
  413: 'El archivo supera el tamaño permitido.',
  429: 'Espera unos minutos antes de intentar de nuevo.',
  500: 'Algo falló de nuestro lado. Intenta de nuevo en un momento.',
};

export function errorPage(context: PageContext, status: number, detail?: string): Html {
  const known = titles[status] ? status : status >= 500 ? 500 : 400;
  return page(
    context,
    titles[known],
    html`<p>${detail ?? texts[known]}</p><p><a href="/console/leads">Ir a las solicitudes</a></p>`,
  );
}
