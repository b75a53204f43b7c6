export interface MenuItem {
  key: string;
  name: string;
  url: string;
  children: MenuItem[];
}
